import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADA, ID, json, KEY, scriptedFetch } from './helpers/fixtures';
import { AT_SIGNING, newSecret, signedHeaders, UPDATED } from './helpers/webhooks';

// These tests load the built files (turbo runs `build` before `test`).
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
type Sdk = typeof import('../src/index');
type Webhooks = typeof import('../src/webhooks/index');
let esm: Sdk;
let cjs: Sdk;
let esmWebhooks: Webhooks;
let cjsWebhooks: Webhooks;

beforeAll(async () => {
  if (!existsSync(dist('index.js')) || !existsSync(dist('index.cjs'))) {
    throw new Error('dist/ is missing: run `pnpm --filter @customers-api/sdk build` first');
  }
  esm = (await import(/* @vite-ignore */ dist('index.js'))) as Sdk;
  cjs = createRequire(import.meta.url)(dist('index.cjs')) as Sdk;
  esmWebhooks = (await import(/* @vite-ignore */ dist('webhooks.js'))) as Webhooks;
  cjsWebhooks = createRequire(import.meta.url)(dist('webhooks.cjs')) as Webhooks;
});

describe('the built package', () => {
  it('loads as two distinct copies (ESM and CJS) with the same exports', () => {
    expect(esm.NotFoundError).not.toBe(cjs.NotFoundError);
    expect(Object.keys(esm).sort()).toEqual(Object.keys(cjs).sort());
  });

  it('instanceof works across the ESM and CJS builds, both ways', () => {
    const fromCjs = new cjs.NotFoundError('x', { status: 404 });
    const fromEsm = new esm.TimeoutError('y');
    expect(fromCjs instanceof esm.NotFoundError).toBe(true);
    expect(fromCjs instanceof esm.CustomersApiError).toBe(true);
    expect(fromCjs instanceof esm.ConflictError).toBe(false);
    expect(fromEsm instanceof cjs.TimeoutError).toBe(true);
    expect(fromEsm instanceof cjs.ConnectionError).toBe(true);
    expect(fromEsm instanceof cjs.NotFoundError).toBe(false);
  });

  it('an error thrown by a CJS client is caught by ESM classes', async () => {
    const { fetch } = scriptedFetch([new Response('{"error":"Not Found","message":"Customer not found"}', { status: 404 })]);
    const client = new cjs.CustomersClient({ apiKey: KEY, fetch });
    const err = await client.customers.get(ID).catch((e: unknown) => e);
    expect(err instanceof esm.NotFoundError).toBe(true);
    expect(err instanceof esm.CustomersApiError).toBe(true);
  });

  it('both builds load the error advice on the first error response (a chunk of its own in ESM)', async () => {
    for (const sdk of [esm, cjs]) {
      const { fetch } = scriptedFetch([new Response('{"error":"Conflict","message":"taken"}', { status: 409 })]);
      const err = await new sdk.CustomersClient({ apiKey: KEY, fetch }).customers.get(ID).catch((e: unknown) => e);
      expect((err as Error).message).toBe('409 Conflict: taken. Use another email address, or update the customer that already has it.');
    }
  });

  it('ships no @internal declaration in its .d.ts (stripInternal): the request plumbing stays private', () => {
    for (const file of ['index.d.ts', 'index.d.cts', 'webhooks.d.ts', 'webhooks.d.cts']) {
      const types = readFileSync(dist(file), 'utf8');
      expect(types, file).not.toContain('@internal');
      for (const name of ['CallInit', 'CallContext', 'ApiRequest', 'NextPageRequest', 'interface Answer', 'type Send', 'type Call ']) {
        expect(types, `${file}: ${name}`).not.toContain(name);
      }
    }
  });

  it('imports openapi-fetch, a caret-ranged dependency, in both builds instead of bundling a copy', () => {
    const { dependencies } = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'));
    expect(dependencies).toEqual({ 'openapi-fetch': 'catalog:' });
    const workspace = readFileSync(fileURLToPath(new URL('../../../pnpm-workspace.yaml', import.meta.url)), 'utf8');
    expect(workspace).toMatch(/^ {2}openapi-fetch: \^0\.17\.\d+$/m);
    expect(readFileSync(dist('index.js'), 'utf8')).toMatch(/^import \{[^}]*serializePrimitiveParam[^}]*\} from "openapi-fetch";$/m);
    expect(readFileSync(dist('index.cjs'), 'utf8')).toContain('require("openapi-fetch")');
    expect(readFileSync(dist('index.js'), 'utf8')).not.toContain('function serializePrimitiveParam');
  });

  it('bakes the package.json version into VERSION and the User-Agent', async () => {
    const { version } = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'));
    expect(esm.VERSION).toBe(version);
    expect(cjs.VERSION).toBe(version);
    const { fetch, calls } = scriptedFetch([new Response(null, { status: 204 })]);
    await new esm.CustomersClient({ apiKey: KEY, fetch }).customers.delete(ID);
    expect(calls[0]!.headers.get('user-agent')).toBe(`customers-api-sdk/${version}`);
  });

  it.each(['esm', 'cjs'] as const)('iterates every page of a list with the %s build', async (format) => {
    const sdk = format === 'esm' ? esm : cjs;
    const second = { ...ADA, id: '00000000-0000-4000-8000-000000000002' };
    const { fetch, calls } = scriptedFetch([
      json({ data: [ADA], has_more: true, next_cursor: 'c2' }),
      json({ data: [second], has_more: false, next_cursor: null }),
    ]);
    const seen = [];
    for await (const customer of new sdk.CustomersClient({ apiKey: KEY, fetch }).customers.list({ limit: 1 })) seen.push(customer.id);
    expect(seen).toEqual([ADA.id, second.id]);
    expect(calls.map((c) => new URL(c.url).search)).toEqual(['?limit=1', '?limit=1&cursor=c2']);
  });

  describe('webhooks', () => {
    const body = JSON.stringify(UPDATED);
    const secret = newSecret();
    const headers = signedHeaders(body, [secret]);

    it('@customers-api/sdk/webhooks exports the verifier, its error and the test signer, in ESM and CJS', () => {
      expect(Object.keys(esmWebhooks).sort()).toEqual(['DEFAULT_WEBHOOK_TOLERANCE_SECONDS', 'WebhookVerificationError', 'signWebhook', 'verifyWebhook']);
      expect(Object.keys(cjsWebhooks).sort()).toEqual(Object.keys(esmWebhooks).sort());
      // The signer is for receivers' tests: it stays out of the client's entry.
      expect(esm).not.toHaveProperty('signWebhook');
    });

    it('signs with either build what both verify', async () => {
      for (const sign of [esmWebhooks.signWebhook, cjsWebhooks.signWebhook]) {
        const signed = await sign({ id: 'evt_0123456789abcdef0123456789abcdef', type: 'customer.created' }, secret);
        expect((await esm.verifyWebhook(signed.body, signed.headers, secret)).type).toBe('customer.created');
        expect((await cjsWebhooks.verifyWebhook(signed.body, signed.headers, secret)).type).toBe('customer.created');
      }
    });

    it.each([
      ['esm main (loads the checks on first use)', () => esm.verifyWebhook],
      ['cjs main', () => cjs.verifyWebhook],
      ['esm /webhooks', () => esmWebhooks.verifyWebhook],
      ['cjs /webhooks', () => cjsWebhooks.verifyWebhook],
      ['esm client.webhooks (webhookSecret option)', () => {
        const { webhooks } = new esm.CustomersClient({ apiKey: KEY, webhookSecret: secret });
        return (raw: string, h: typeof headers, _s: string, o: { now: Date }) => webhooks.verify(raw, h, undefined, o);
      }],
    ] as const)('the %s build verifies, and refuses a tampered body', async (_, verifier) => {
      const verify = verifier() as Sdk['verifyWebhook'];
      expect(await verify(body, headers, secret, { now: AT_SIGNING })).toEqual(UPDATED);
      const error = await verify(`${body} `, headers, secret, { now: AT_SIGNING }).catch((e: unknown) => e);
      expect((error as { reason?: unknown }).reason).toBe('no_matching_signature');
    });

    it('a WebhookVerificationError of any build and entry is an instance of every copy of the class', async () => {
      const errors = await Promise.all(
        [esm.verifyWebhook, cjs.verifyWebhook, esmWebhooks.verifyWebhook, cjsWebhooks.verifyWebhook].map((verify) =>
          verify(body, {}, secret).catch((e: unknown) => e),
        ),
      );
      const classes = [esm.WebhookVerificationError, cjs.WebhookVerificationError, esmWebhooks.WebhookVerificationError, cjsWebhooks.WebhookVerificationError];
      for (const error of errors) {
        for (const Class of classes) expect(error).toBeInstanceOf(Class);
        expect(error).toBeInstanceOf(esm.CustomersApiError);
        expect(error).not.toBeInstanceOf(cjs.ConfigurationError);
      }
      expect(esmWebhooks.WebhookVerificationError).toBe(esm.WebhookVerificationError); // one shared chunk in ESM
    });
  });
});
