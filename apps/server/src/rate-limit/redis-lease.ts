import type { Redis } from 'ioredis';

/** What Redis granted: tokens for this process, the window's count after them, and the window's time left. */
export interface Lease {
  /** Tokens granted, from 0 (the window's budget is spent) to the number asked for. */
  granted: number;
  /** Tokens granted in this window over every process (and CLI charges) so far, this grant included. */
  used: number;
  /** Milliseconds until the window's count expires in Redis. */
  ttlMs: number;
}

// Grants min(want, limit - used) and never counts past the limit, so `used` stays a true count of grants. The key
// and its value are rate-limiter-flexible's (`rl:seller:<limit>:<seller>`, a counter expiring with its window), so
// the CLI's one-token charges and the servers' leases take from one count.
const LEASE_SCRIPT = `
local limit = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.max(0, math.min(want, limit - used))
if grant > 0 then used = redis.call('INCRBY', KEYS[1], grant) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[3])
  if used > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
end
return {grant, used, ttl}
`;

interface LeaseCommand {
  customersLease(key: string, limit: number, want: number, windowMs: number): Promise<[number, number, number]>;
}

/**
 * Takes up to `want` tokens of `key`'s budget of `limit` per window in one atomic Redis call (a Lua script, sent
 * by its SHA after the first time). The window starts with the first grant and ends when its count expires.
 *
 * @example
 * const lease = await takeLease(redis, 'rl:seller:100:s1', 100, 10, 1000); // { granted: 10, used: 10, ttlMs: 1000 }
 */
export async function takeLease(redis: Redis, key: string, limit: number, want: number, windowMs: number): Promise<Lease> {
  const client = redis as Redis & Partial<LeaseCommand>;
  if (!client.customersLease) client.defineCommand('customersLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
  const [granted, used, ttlMs] = await (client as Redis & LeaseCommand).customersLease(key, limit, want, windowMs);
  return { granted, used, ttlMs };
}
