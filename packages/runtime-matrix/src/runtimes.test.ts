import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createApiKey, createSeller, startServer, type RunningServer } from '@customers-api/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRuntimes, smokeScripts, type Runtime } from './runtimes.js';

const run = promisify(execFile);

// The built SDK, ESM and CJS, on every runtime we support, against the real reference server on SQLite.
describe('the SDK on every runtime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-matrix-'));
  let server: RunningServer;
  let apiKey: string;
  let runtimes: Runtime[] = [];

  beforeAll(async () => {
    runtimes = await resolveRuntimes();
    server = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: `sqlite:${join(dir, 'customers.db')}`, logLevel: 'silent' },
      { print: () => {} },
    );
    const seller = await createSeller(server.database, { name: 'Runtime matrix', plan: 'growth', customerLimit: null });
    apiKey = (await createApiKey(server.database, { sellerId: seller.id, name: 'matrix' })).key;
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = ['node 20', 'node 22', 'node 24', 'bun', 'deno'];
  const cases = names.flatMap((name, index) => smokeScripts.map((script) => [name, script.format, index, script] as const));

  it.each(cases)('%s runs the %s build: create, get, update, delete, typed 404', async (_, format, index, script) => {
    const runtime = runtimes[index]!;
    const { stdout } = await run(runtime.command, [...runtime.args, script.path], {
      env: { ...process.env, BASE_URL: server.url, API_KEY: apiKey, DENO_DIR: join(dir, 'deno'), NO_COLOR: '1' },
      timeout: 45_000,
    });
    expect(stdout.trim()).toBe(`smoke ${format} ok: create/get/update/delete/404 against ${server.url}`);
  });

  it('the versions are the ones promised', async () => {
    const versions = await Promise.all(
      runtimes.map(async (runtime) => (await run(runtime.command, ['--version'])).stdout.trim()),
    );
    expect(versions[0]).toMatch(/^v20\./);
    expect(versions[1]).toMatch(/^v22\./);
    expect(versions[2]).toMatch(/^v24\./);
    expect(versions[3]).toMatch(/^1\./);
    expect(versions[4]).toMatch(/^deno 2\./);
  });
});
