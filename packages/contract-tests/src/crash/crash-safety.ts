import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { createApiKey, createSeller, type DatabaseHandle } from '@customers-api/server';
import type { TestDatabase } from '@customers-api/server/testing';
import { send } from '../support/http.js';
import { rememberKey } from '../support/log-capture.js';
import { startServerProcess, type ServerProcess } from '../targets/server-process.js';
import { databaseBackedTarget } from '../targets/shared-database.js';
import type { ConformanceLog } from '../conformance/checked-fetch.js';

export interface CrashFigures {
  acknowledged: number;
  inFlight: number;
  inFlightStored: number;
}

const bodyFor = (n: number) => ({
  first_name: `Crash ${n} 😀`,
  last_name: 'Ünïcödé מבחן',
  email: `crash.${n}@example.com`,
  company_name: n % 2 ? null : `Company ${n}`,
  address_data: { street: `Street ${n}`, city: 'Berlin' },
});

/**
 * Starts the server process on the database, keeps 8 writers creating customers, kills the process with
 * SIGKILL once `killAfter` creates were acknowledged, restarts it on the same database and checks that every
 * acknowledged customer is there and intact, and that the only other customers are ones whose request was
 * in flight at the kill (sent, never answered).
 *
 * With `processes: 2`, two server processes share the database and the writers alternate between them; the first
 * is killed and the survivor, which never stopped, is the one checked (then a restarted process too): what one
 * process's death leaves behind (its half-done statements, its locks on the seller's row) must not reach the other.
 */
export async function crashDuringWrites(
  database: TestDatabase,
  handle: DatabaseHandle,
  log: ConformanceLog,
  { killAfter = 60, processes = 1 }: { killAfter?: number; processes?: 1 | 2 } = {},
): Promise<CrashFigures> {
  // No rate limit: the check reads back every acknowledged customer at once, faster than the default 100/s.
  const seller = await createSeller(handle, { name: 'Crash seller', plan: 'scale', rateLimit: 0 });
  const key = rememberKey((await createApiKey(handle, { sellerId: seller.id, name: 'crash' })).key);
  const started: ServerProcess[] = [];
  try {
    const running = await Promise.all(Array.from({ length: processes }, () => startServerProcess(database.url)));
    started.push(...running);
    const first = running[0]!;
    const targets = running.map((process, i) => databaseBackedTarget(`before crash, process ${i + 1}`, process.url, handle, log));
    const acknowledged = new Map<string, any>();
    const unanswered = new Map<string, ReturnType<typeof bodyFor>>();
    let next = 0;
    let killed: Promise<void> | undefined;
    const writer = async (_: unknown, w: number) => {
      const target = targets[w % targets.length]!;
      while (!killed) {
        const body = bodyFor(next++);
        try {
          const response = await send(target, 'POST', '/api/customers', { key, body });
          if (response.status !== 201) throw new Error(`unexpected ${response.status} ${response.text}`);
          acknowledged.set(body.email, response.json);
          if (acknowledged.size >= killAfter) killed ??= first.kill9();
        } catch (error) {
          if (!killed) throw error;
          unanswered.set(body.email, body);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    await killed;
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);

    // The survivor answers what it had acknowledged and what the dead process had; a restart answers it all too.
    const survivors = running.slice(1).map((process) => databaseBackedTarget('survivor', process.url, handle, log));
    for (const survivor of survivors) {
      for (const customer of acknowledged.values()) {
        expect(await send(survivor, 'GET', `/api/customers/${customer.id}`, { key }).then((r) => r.json)).toEqual(customer);
      }
      const created = await send(survivor, 'POST', '/api/customers', { key, body: bodyFor(2_000_000) });
      expect(created.status).toBe(201);
      acknowledged.set(created.json.email, created.json);
    }
    const second = await startServerProcess(database.url);
    started.push(second);
    const after = databaseBackedTarget('after restart', second.url, handle, log);
    for (const [email, customer] of acknowledged) {
      const read = await send(after, 'GET', `/api/customers/${customer.id}`, { key });
      expect({ email, status: read.status, body: read.json }).toEqual({ email, status: 200, body: customer });
    }
    const rows = await handle.db.selectFrom('customers').select(['id', 'email']).where('seller_id', '=', seller.id).execute();
    const extra = rows.filter((row) => !acknowledged.has(row.email));
    for (const row of extra) {
      const sent = unanswered.get(row.email);
      expect(sent, `customer ${row.email} was never sent or was answered`).toBeDefined();
      const read = await send(after, 'GET', `/api/customers/${row.id}`, { key });
      expect(read.json).toMatchObject(sent!);
    }
    expect(rows.length).toBe(acknowledged.size + extra.length);
    expect([...acknowledged.keys()].every((email) => rows.some((row) => row.email === email))).toBe(true);
    const fresh = await send(after, 'POST', '/api/customers', { key, body: bodyFor(1_000_000) });
    expect(fresh.status).toBe(201);
    expect(isDeepStrictEqual(Object.keys(fresh.json).sort(), Object.keys([...acknowledged.values()][0]).sort())).toBe(true);
    return { acknowledged: acknowledged.size, inFlight: unanswered.size, inFlightStored: extra.length };
  } finally {
    await Promise.all(started.map((p) => p.stop()));
  }
}
