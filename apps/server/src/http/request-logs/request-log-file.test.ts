import { existsSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createApiKey } from '../../db/api-keys.js';
import { createSeller } from '../../db/sellers.js';
import { useTestDatabase } from '../../test/test-database.js';
import { openRequestLogFile, requestLogFileOf, type RequestLogFile } from './request-log-file.js';
import { createRequestLogRecorder, type RequestLogRecorder } from './request-log-recorder.js';
import { insertRequestLogs, type RequestLogEntry } from './request-log-store.js';

const entry = (sellerId: string, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  sellerId,
  occurredAt: '2026-11-28T10:00:00.000Z',
  method: 'POST',
  path: '/api/customers',
  status: 409,
  durationMs: 2.5,
  keyId: null,
  requestId: `req_${crypto.randomUUID().replaceAll('-', '')}`,
  apiVersion: '2026-11-26',
  mode: 'live',
  requestBody: '{"email":"ada@example.com"}',
  errorBody: '{"error":"Conflict","message":"email is taken"}',
  ...overrides,
});

describe("a SQLite file's request log file", () => {
  const database = useTestDatabase('sqlite');
  let file: RequestLogFile | undefined;
  let recorder: RequestLogRecorder | undefined;
  afterEach(async () => {
    await recorder?.close();
    await file?.close();
    recorder = undefined;
    file = undefined;
  });

  it('is a private file beside the database that the recorder writes on its own thread; the main database gets no row', async () => {
    const seller = await createSeller(database.handle, { name: 'file', plan: 'starter' });
    const key = await createApiKey(database.handle, { sellerId: seller.id, name: 'Production checkout' });
    file = await openRequestLogFile(database.handle);
    const path = requestLogFileOf(database.handle.file!);
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    recorder = createRequestLogRecorder({ database: database.handle, file, log: pino({ level: 'silent' }), now: () => new Date(), flushMs: 3_600_000 });
    recorder.record(entry(seller.id, { keyId: key.id, path: '/api/customers/1' }));
    recorder.record(entry(seller.id, { path: '/api/customers/2' }));
    await recorder.flush();
    const rows = await file!.handle.db.selectFrom('request_logs').selectAll().where('seller_id', '=', seller.id).orderBy('id').execute();
    expect(rows.map((row) => [row.path, row.key_name, row.status, row.error_body])).toEqual([
      ['/api/customers/1', 'Production checkout', 409, '{"error":"Conflict","message":"email is taken"}'],
      ['/api/customers/2', null, 409, '{"error":"Conflict","message":"email is taken"}'],
    ]);
    expect(await database.handle.db.selectFrom('request_logs').selectAll().execute()).toEqual([]);
  });

  it('refuses a batch the file refuses as a whole (nothing of it stored) and writes the next one', async () => {
    file = await openRequestLogFile(database.handle);
    const before = await file!.handle.db.selectFrom('request_logs').select('id').execute();
    const row = (path: string | null) => ['seller', '2026-11-28T10:00:00.000Z', 'GET', path, 200, 1, null, null, null, 'req_1', null, 'live', null, null, null];
    await expect(file!.write([row('/first'), row(null)])).rejects.toThrow(/NOT NULL/);
    await file!.write([row('/second')]);
    const after = await file!.handle.db.selectFrom('request_logs').select('path').where('seller_id', '=', 'seller').execute();
    expect(after.map((r) => r.path)).toEqual(['/second']);
    expect((await file!.handle.db.selectFrom('request_logs').select('id').execute()).length).toBe(before.length + 1);
  });

  it('runs its thread within a bounded heap: a batch bigger than the heap fails alone, and the next write starts a new thread', async () => {
    file = await openRequestLogFile(database.handle);
    const row = (path: string) => ['huge', '2026-11-28T10:00:00.000Z', 'GET', path, 200, 1, null, null, null, 'req_1', null, 'live', null, null, null];
    // 96 distinct 1 MiB strings: more than the thread's 64 MB old generation holds at once.
    const huge = Array.from({ length: 96 }, (_, i) => row(String(i).padEnd(1 << 20, 'x')));
    await expect(file!.write(huge)).rejects.toThrow(/memory|stopped/i);
    await file!.write([row('/after')]);
    const rows = await file!.handle.db.selectFrom('request_logs').select('path').where('seller_id', '=', 'huge').execute();
    expect(rows.map((r) => r.path)).toEqual(['/after']);
  });

  it("moves the rows an earlier version recorded in the main database into the file, oldest first, once", async () => {
    const seller = await createSeller(database.handle, { name: 'earlier', plan: 'starter' });
    const paths = Array.from({ length: 7 }, (_, i) => `/earlier/${i}`);
    await insertRequestLogs(database.handle, paths.map((path) => entry(seller.id, { path })), new Map());
    file = await openRequestLogFile(database.handle);
    const moved = await file!.handle.db.selectFrom('request_logs').select('path').where('seller_id', '=', seller.id).orderBy('id').execute();
    expect(moved.map((row) => row.path)).toEqual(paths);
    expect(await database.handle.db.selectFrom('request_logs').selectAll().execute()).toEqual([]);
    await file!.close();
    file = await openRequestLogFile(database.handle);
    expect((await file!.handle.db.selectFrom('request_logs').select('path').where('seller_id', '=', seller.id).execute()).length).toBe(7);
  });
});
