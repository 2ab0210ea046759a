import { describe, expect, it } from 'vitest';
import { selectClaims, type Candidate } from './claim-selection.js';

const row = (id: number, endpointId: string, sellerId: string, dueAt = id): Candidate => ({ id, endpointId, sellerId, dueAt });

describe('selectClaims', () => {
  it("takes every seller's first row before any seller's second, and each endpoint's within its free slots", () => {
    const candidates = [row(1, 'a1', 'A'), row(2, 'a1', 'A'), row(3, 'a1', 'A'), row(4, 'a2', 'A'), row(9, 'b1', 'B')];
    const endpointFree = new Map([['a1', 2], ['a2', 4], ['b1', 4]]);
    expect(selectClaims({ candidates, endpointFree, sellerFree: new Map([['A', 8], ['B', 8]]), limit: 10 })).toEqual([1, 9, 4, 2]);
    // A's seller slots: one left; the quiet seller still comes second.
    expect(selectClaims({ candidates, endpointFree, sellerFree: new Map([['A', 1], ['B', 8]]), limit: 10 })).toEqual([1, 9]);
    expect(selectClaims({ candidates, endpointFree, sellerFree: new Map([['A', 8], ['B', 8]]), limit: 2 })).toEqual([1, 9]);
  });

  it('takes nothing from an endpoint or seller without free slots', () => {
    const candidates = [row(1, 'a1', 'A'), row(2, 'b1', 'B')];
    expect(selectClaims({ candidates, endpointFree: new Map([['a1', 0], ['b1', 1]]), sellerFree: new Map([['A', 8], ['B', 0]]), limit: 5 })).toEqual([]);
  });
});
