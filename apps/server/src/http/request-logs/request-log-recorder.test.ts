import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createApiKey } from '../../db/api-keys.js';
import { createSeller } from '../../db/sellers.js';
import { DIALECTS, useTestDatabase } from '../../test/test-database.js';
import { createRequestLogRecorder, type DropReason, type RequestLogRecorder } from './request-log-recorder.js';
import type { RequestLogEntry } from './request-log-store.js';

const entry = (sellerId: string, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  sellerId,
  occurredAt: '2026-11-26T10:00:00.000Z',
  method: 'GET',
  path: '/api/customers',
  status: 200,
  durationMs: 1.5,
  keyId: null,
  requestId: `req_${Math.random().toString(36).slice(2)}`,
  apiVersion: '2026-11-26',
  mode: 'live',
  requestBody: null,
  errorBody: null,
  ...overrides,
});

describe.each(DIALECTS)('the request log recorder on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let recorder: RequestLogRecorder | undefined;
  afterEach(async () => {
    await recorder?.close();
  });
  const counted = () => {
    const drops: Record<string, number> = {};
    return { drops, dropped: (reason: DropReason, count: number) => void (drops[reason] = (drops[reason] ?? 0) + count) };
  };
  const rowsOf = async (sellerId: string) =>
    database.handle.db.selectFrom('request_logs').selectAll().where('seller_id', '=', sellerId).orderBy('id').execute();

  it('holds at most its limits, in all and per seller, and counts what it drops without waiting', async () => {
    const noisy = await createSeller(database.handle, { name: 'noisy', plan: 'starter' });
    const quiet = await createSeller(database.handle, { name: 'quiet', plan: 'starter' });
    const { drops, dropped } = counted();
    recorder = createRequestLogRecorder({ database: database.handle, log: pino({ level: 'silent' }), now: () => new Date(), dropped, bufferLimit: 8, sellerBufferLimit: 5, flushMs: 3_600_000 });
    for (let i = 0; i < 7; i++) recorder.record(entry(noisy.id));
    for (let i = 0; i < 4; i++) recorder.record(entry(quiet.id));
    expect(recorder.waiting).toBe(8);
    expect(drops).toEqual({ seller_full: 2, buffer_full: 1 });
    await recorder.flush();
    expect(recorder.waiting).toBe(0);
    expect(await rowsOf(noisy.id)).toHaveLength(5);
    expect(await rowsOf(quiet.id)).toHaveLength(3);
    // Written, the seller's share is free again.
    for (let i = 0; i < 5; i++) recorder.record(entry(noisy.id));
    expect(drops.seller_full).toBe(2);
  });

  it('writes the buffer by itself on its timer, without anybody flushing it', async () => {
    const seller = await createSeller(database.handle, { name: 'timer', plan: 'starter' });
    recorder = createRequestLogRecorder({ database: database.handle, log: pino({ level: 'silent' }), now: () => new Date(), flushMs: 20 });
    recorder.record(entry(seller.id));
    // Waits for the row however slow the machine is; only that the timer writes it is checked.
    await expect.poll(async () => (await rowsOf(seller.id)).length, { timeout: 60_000, interval: 20 }).toBe(1);
    expect(recorder.waiting).toBe(0);
  });

  it('writes as soon as a batch of flushAt entries waits, without waiting for its timer', async () => {
    const seller = await createSeller(database.handle, { name: 'full batch', plan: 'starter' });
    recorder = createRequestLogRecorder({ database: database.handle, log: pino({ level: 'silent' }), now: () => new Date(), flushMs: 3_600_000, flushAt: 4 });
    for (let i = 0; i < 3; i++) recorder.record(entry(seller.id));
    expect(recorder.waiting).toBe(3);
    recorder.record(entry(seller.id));
    await expect.poll(async () => (await rowsOf(seller.id)).length, { timeout: 60_000, interval: 20 }).toBe(4);
    expect(recorder.waiting).toBe(0);
  });

  it("writes each key's name and prefix as they are, and counts a batch the database refuses", async () => {
    const seller = await createSeller(database.handle, { name: 'keys', plan: 'starter' });
    const key = await createApiKey(database.handle, { sellerId: seller.id, name: 'Production checkout' });
    const { drops, dropped } = counted();
    recorder = createRequestLogRecorder({ database: database.handle, log: pino({ level: 'silent' }), now: () => new Date(), dropped, flushMs: 3_600_000 });
    recorder.record(entry(seller.id, { keyId: key.id }));
    await recorder.flush();
    const [row] = await rowsOf(seller.id);
    expect(row).toMatchObject({ key_id: key.id, key_name: 'Production checkout', key_prefix: key.key.slice(0, row!.key_prefix!.length) });
    // A row the database refuses (a path is required): the batch is dropped and counted, nothing thrown.
    recorder.record(entry(seller.id, { path: null as unknown as string }));
    await recorder.flush();
    expect(drops).toEqual({ write_failed: 1 });
  });

  it('prunes rows past 30 days and beyond a seller\'s share, at most a batch at a time', async () => {
    const seller = await createSeller(database.handle, { name: 'prune', plan: 'starter' });
    const { pruneRequestLogs } = await import('./request-log-store.js');
    // Rows are written in time order (the prune relies on it): start from an empty table, the oldest rows first.
    await database.handle.db.deleteFrom('request_logs').execute();
    recorder = createRequestLogRecorder({ database: database.handle, log: pino({ level: 'silent' }), now: () => new Date('2026-11-26T10:00:00Z'), flushMs: 3_600_000 });
    for (let i = 0; i < 3; i++) recorder.record(entry(seller.id, { occurredAt: '2026-10-01T00:00:00.000Z', path: `/old/${i}` }));
    for (let i = 0; i < 6; i++) recorder.record(entry(seller.id, { path: `/new/${i}` }));
    await recorder.flush();
    const now = new Date('2026-11-26T10:00:00Z');
    expect(await pruneRequestLogs(database.handle, { now, sellers: [], batch: 2 })).toBe(2);
    expect(await pruneRequestLogs(database.handle, { now, sellers: [seller.id], perSeller: 4, batch: 100 })).toBe(3);
    expect((await rowsOf(seller.id)).map((row) => row.path)).toEqual(['/new/2', '/new/3', '/new/4', '/new/5']);
  });

  it('prunes expired rows through the primary key from the oldest, stopping at the first row still kept', async () => {
    const seller = await createSeller(database.handle, { name: 'prune order', plan: 'starter' });
    const { pruneRequestLogs } = await import('./request-log-store.js');
    await database.handle.db.deleteFrom('request_logs').execute();
    recorder = createRequestLogRecorder({ database: database.handle, log: pino({ level: 'silent' }), now: () => new Date(), flushMs: 3_600_000 });
    recorder.record(entry(seller.id, { occurredAt: '2026-10-01T00:00:00.000Z', path: '/expired' }));
    recorder.record(entry(seller.id, { occurredAt: '2026-10-27T10:00:00.000Z', path: '/kept' }));
    recorder.record(entry(seller.id, { occurredAt: '2026-10-02T00:00:00.000Z', path: '/late' }));
    await recorder.flush();
    const now = new Date('2026-11-26T10:00:00Z');
    expect(await pruneRequestLogs(database.handle, { now, sellers: [] })).toBe(1);
    // The row written out of order waits until the row before it expires too.
    expect((await rowsOf(seller.id)).map((row) => row.path)).toEqual(['/kept', '/late']);
    expect(await pruneRequestLogs(database.handle, { now: new Date('2026-11-26T10:00:00.001Z'), sellers: [] })).toBe(2);
  });
});
