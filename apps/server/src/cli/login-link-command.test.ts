import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeLoginLink } from '../dashboard/login-links.js';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { runCli } from './run-cli.js';

async function cli(env: NodeJS.ProcessEnv, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), env });
  return { code, stdout, stderr };
}

describe.each(DIALECTS)('cli sellers login-link on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('prints a one-time sign-in URL (JSON or text) that signs in the seller once', async () => {
    const db = ['--database', database.url];
    const sellerId = JSON.parse((await cli({}, 'sellers', 'create', '--name', 'Acme', '--json', ...db)).stdout).id;
    const json = await cli({}, 'sellers', 'login-link', '--seller', sellerId, '--base-url', 'https://api.example.com', '--json', ...db);
    expect(json.code).toBe(0);
    const { url, expires_at: expiresAt } = JSON.parse(json.stdout);
    expect(url).toMatch(/^https:\/\/api\.example\.com\/dashboard\/login\?token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());

    const text = await cli({ PORT: '4100' }, 'sellers', 'login-link', '--seller', sellerId, ...db);
    expect(text.stdout).toMatch(/works once, for 15 minutes/);
    expect(text.stdout).toMatch(/http:\/\/127\.0\.0\.1:4100\/dashboard\/login\?token=/);

    const handle = await database.open();
    const token = new URL(url).searchParams.get('token');
    expect(await consumeLoginLink(handle, token)).toBe(sellerId);
    expect(await consumeLoginLink(handle, token)).toBeUndefined();
  });

  it('fails clearly on a wrong seller, base URL or usage', async () => {
    const db = ['--database', database.url];
    const cases: [string[], RegExp, number][] = [
      [['sellers', 'login-link', '--seller', '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90'], /Unknown seller/, 1],
      [['sellers', 'login-link', '--seller', 'nope'], /Unknown seller/, 1],
      [['sellers', 'login-link'], /--seller is required/, 2],
      [['sellers', 'login-link', '--seller', 'x', '--base-url', 'ftp://x'], /--base-url must be/, 1],
      [['sellers', 'login-link', '--seller', 'x', '--base-url', 'https://x/path'], /--base-url must be/, 1],
      [['sellers', 'frobnicate'], /login-link --seller SELLER_ID/, 2],
    ];
    for (const [argv, message, code] of cases) {
      const result = await cli({}, ...argv, ...db);
      expect(result.code, argv.join(' ')).toBe(code);
      expect(result.stderr, argv.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });
});
