import { describe, expect, it } from 'vitest';
import { isApiError } from '../errors/api-error.js';
import { canonicalEndpointId, parseEndpointUpdate, parseEventsQuery, parseReplay } from './webhook-input.js';

const context = { allowPrivate: false, openVersions: ['2026-11-26'], now: '2026-11-28T10:00:00.000Z' };
const ID = '7C1D2E3F-4A5B-4C6D-8E7F-9A0B1C2D3E4F';

/** The 400 message `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isApiError(error) && error.status === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('canonicalEndpointId', () => {
  it('gives the lowercase UUID of an id written with a urn:uuid: prefix', () => {
    expect(canonicalEndpointId(`urn:uuid:${ID}`)).toBe(ID.toLowerCase());
    expect(canonicalEndpointId(ID)).toBe(ID.toLowerCase());
  });
});

describe('parseEndpointUpdate', () => {
  it('changes only what the body names', () => {
    expect(parseEndpointUpdate({ description: 'CRM' }, context)).toEqual({ description: 'CRM' });
    expect(parseEndpointUpdate({ api_version: '2026-11-26' }, context)).toEqual({ apiVersion: '2026-11-26' });
    expect(parseEndpointUpdate({ disabled: false }, context)).toEqual({ disabledAt: null });
    expect(parseEndpointUpdate({ disabled: true }, context)).toEqual({ disabledAt: context.now });
  });
});

describe('parseReplay', () => {
  it('accepts a since of exactly now, and defaults to every event (not only the undelivered ones)', () => {
    expect(parseReplay({ since: context.now }, context.now)).toEqual({ since: context.now, until: undefined, onlyUndelivered: false, cursor: undefined });
    expect(parseReplay({ since: context.now, only_undelivered: true }, context.now).onlyUndelivered).toBe(true);
    expect(refusal(() => parseReplay({ since: '2026-11-28T10:00:00.001Z' }, context.now))).toBe('since must not be in the future');
  });

  it('reads since and until in UTC whatever offset they are written with', () => {
    expect(parseReplay({ since: '2026-11-28T11:00:00+01:00', until: '2026-11-28T12:00:00+02:00' }, context.now)).toMatchObject({
      since: context.now,
      until: context.now,
    });
  });
});

describe('parseEventsQuery', () => {
  it('binds the cursor to every filter, ids lowercase and instants in UTC', () => {
    const plan = parseEventsQuery(
      `type=customer.updated&customer_id=${ID}&undelivered_to=urn:uuid:${ID}&created_after=2026-11-28T11:00:00%2B01:00&created_before=2026-11-29T00:00:00Z&limit=5`,
    );
    const id = ID.toLowerCase();
    expect(plan).toEqual({
      limit: 5,
      cursor: undefined,
      filters: { type: 'customer.updated', customer_id: id, created_after: context.now, created_before: '2026-11-29T00:00:00.000Z', undelivered_to: id },
      type: 'customer.updated',
      customerId: id,
      createdFrom: context.now,
      createdBefore: '2026-11-29T00:00:00.000Z',
      undeliveredTo: id,
    });
  });
});
