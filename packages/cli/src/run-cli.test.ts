import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

const KEY = { CUSTOMERS_API_KEY: `sk_live_${'a'.repeat(48)}`, CUSTOMERS_API_BASE_URL: 'http://127.0.0.1:9' };

async function cli(argv: string[], env: Record<string, string> = KEY) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { env, io: { out: (line) => out.push(line), err: (line) => err.push(line) } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('runCli', () => {
  it('prints the usage for --help or no command, and the version, without a key', async () => {
    expect(await cli(['--help'], {})).toMatchObject({ code: 0, err: '' });
    expect((await cli([], {})).out).toContain('Usage: customers <command>');
    expect(await cli(['-v'], {})).toEqual({ code: 0, out: '0.1.0', err: '' });
  });

  it.each([
    [['deploy'], 'unknown command: deploy'],
    [['events', 'purge'], 'unknown command: events purge'],
    [['trigger', 'customer.created', '--forward-to', 'http://x'], 'trigger does not take --forward-to'],
    [['listen'], 'listen: --forward-to URL is required'],
    [['listen', '--forward-to', 'not a url'], '--forward-to not a url is not a URL'],
    [['listen', '--forward-to', 'http://x', '--events', 'customer.created,customer.merged'], '--events customer.merged: not an event type'],
    [['listen', '--forward-to', 'http://x', '--interval', '0'], '--interval 0: expected a positive whole number'],
    [['events', 'list', '--limit', '1.5'], '--limit 1.5: expected a positive whole number'],
    [['events', 'resend', 'evt_1'], 'events resend: --endpoint ENDPOINT_ID is required'],
    [['trigger', 'customer.merged'], 'trigger: unknown event customer.merged'],
    [['trigger', 'customer.deleted', '--set', 'nickname=x'], '--set nickname: createCustomer does not take the field nickname'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('%j is a bad command line (exit 2) saying why', async (argv, message) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain('Run customers --help');
  });

  it('a connection failure is exit 1 with the reason', async () => {
    const result = await cli(['events', 'list'], { ...KEY });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^customers: /);
  });
});
