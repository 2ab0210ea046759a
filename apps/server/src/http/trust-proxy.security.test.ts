import { describe, expect, it } from 'vitest';
import { FAILED_AUTH_LIMIT } from '../rate-limit/request-limits.js';
import { useTestServer } from '../test/use-test-server.js';

const BAD_KEY = 'sk_live_' + 'x'.repeat(48);

/**
 * The test client stands for the one load balancer (it connects from 127.0.0.1, the trusted hop): the right-most
 * X-Forwarded-For entry is the address that balancer saw, everything left of it is whatever the client wrote.
 */
describe('the failed-authentication limiter behind one trusted proxy (--trust-proxy 1)', () => {
  const suite = useTestServer('sqlite', { rateLimit: { perSecond: 1000 }, http: { trustProxy: 1 } });
  const failWith = (forwardedFor: string) =>
    suite.server.call('GET', '/api/customers', { key: BAD_KEY, headers: { 'x-forwarded-for': forwardedFor } });

  it('counts the address the proxy saw: rotating the left-most X-Forwarded-For value does not reset the budget', async () => {
    const statuses = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT + 5; i += 1) statuses.push((await failWith(`10.9.${i}.1, 203.0.113.7`)).status);
    expect(statuses).toEqual([...Array(FAILED_AUTH_LIMIT).fill(401), ...Array(5).fill(429)]);
  });

  it("naming a victim's address in a forged chain does not lock the victim out", async () => {
    for (let i = 0; i < FAILED_AUTH_LIMIT + 5; i += 1) await failWith('198.51.100.9, 203.0.113.8');
    expect((await failWith('198.51.100.9')).status).toBe(401);
  });

  it('groups IPv6 clients by /64: another address of the same /64 shares the budget, the next /64 does not', async () => {
    for (let i = 0; i < FAILED_AUTH_LIMIT; i += 1) expect((await failWith(`2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(401);
    expect((await failWith('2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await failWith('2001:0db8:0001:0002:0:0:0:abcd')).status).toBe(429);
    expect((await failWith('2001:db8:1:3::1')).status).toBe(401);
  });

  it('keeps answering a valid key from a spent address', async () => {
    const seller = await suite.server.seller();
    for (let i = 0; i < FAILED_AUTH_LIMIT; i += 1) await failWith('203.0.113.9');
    const good = await suite.server.call('GET', '/api/customers', {
      key: seller.key,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(good.status).toBe(200);
  });
});
