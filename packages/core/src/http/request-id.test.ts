import { describe, expect, it } from 'vitest';
import { clientRequestId, newRequestId, resolveRequestId } from './request-id.js';

const headers = (value?: string) => (name: string) => (name === 'x-request-id' ? value : undefined);

describe('request ids', () => {
  it("keeps a caller's acceptable id apart from the server's own", () => {
    expect(clientRequestId(headers('checkout-7f3a'))).toBe('checkout-7f3a');
    expect(clientRequestId(headers('has spaces'))).toBeNull();
    expect(clientRequestId(headers('x'.repeat(129)))).toBeNull();
    expect(clientRequestId(headers())).toBeNull();
    expect(newRequestId()).toMatch(/^req_[0-9a-f]{32}$/);
    expect(newRequestId()).not.toBe(newRequestId());
  });

  it('makes ids that sort by the time they were made (they append to the request logs\' index)', () => {
    const earlier = newRequestId(Date.UTC(2026, 10, 28, 10, 0, 0));
    const later = newRequestId(Date.UTC(2026, 10, 28, 10, 0, 0, 1));
    expect(earlier < later).toBe(true);
    expect(earlier.slice(4, 16)).toBe(Date.UTC(2026, 10, 28, 10, 0, 0).toString(16).padStart(12, '0'));
    expect(newRequestId(Date.UTC(2026, 10, 28, 10))).not.toBe(newRequestId(Date.UTC(2026, 10, 28, 10)));
  });

  it("answers with the caller's id when acceptable, else a new one", () => {
    expect(resolveRequestId(headers('mine'))).toBe('mine');
    expect(resolveRequestId(headers('has spaces'))).toMatch(/^req_[0-9a-f]{32}$/);
    expect(resolveRequestId(headers(), () => 'fixed')).toBe('fixed');
  });
});
