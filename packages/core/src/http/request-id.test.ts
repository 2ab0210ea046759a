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

  it("answers with the caller's id when acceptable, else a new one", () => {
    expect(resolveRequestId(headers('mine'))).toBe('mine');
    expect(resolveRequestId(headers('has spaces'))).toMatch(/^req_[0-9a-f]{32}$/);
    expect(resolveRequestId(headers(), () => 'fixed')).toBe('fixed');
  });
});
