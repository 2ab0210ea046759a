// The control API is for test code on this machine: a web page (CORS) or a DNS-rebinding name (Host) cannot use it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';
import { ada, key, raw } from './support.js';

let mock: MockServer;
let url: string;
let guarded: MockServer;
let guardedUrl: string;
const TOKEN = 'a-control-token-of-32-characters';

beforeAll(async () => {
  mock = await createMockServer();
  url = await mock.listen(0);
  guarded = await createMockServer({ controlToken: TOKEN });
  guardedUrl = await guarded.listen(0);
});
afterAll(async () => {
  await mock.close();
  await guarded.close();
});

describe('the control API under /__mock', () => {
  it('answers no preflight and sends no CORS headers, while /api keeps both', async () => {
    const preflight = { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' };
    const control = await raw(`${url}/__mock/webhooks`, 'OPTIONS', preflight);
    expect(control.headers['access-control-allow-origin']).toBeUndefined();
    expect(control.status).toBe(405);
    const list = await raw(`${url}/__mock/webhooks`, 'GET', { Origin: 'https://evil.example' });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
    const api = await raw(`${url}/api/customers`, 'OPTIONS', preflight);
    expect(api.status).toBe(204);
    expect(api.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses a Host that is not loopback with 403 and the standard error body, and takes every loopback name', async () => {
    for (const path of ['/__mock/webhooks', '/__mock/requests', '/__mock/clock', '/__mock/reset', '/__mock/nothing']) {
      const refused = await raw(`${url}${path}`, path.endsWith('reset') ? 'POST' : 'GET', { Host: 'attacker.example' });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toEqual({
        error: 'Forbidden',
        message: expect.stringContaining('Host 127.0.0.1, localhost or [::1] (got attacker.example)'),
      });
    }
    for (const host of ['localhost:4010', '127.0.0.1', '[::1]:1']) {
      expect((await raw(`${url}/__mock/clock`, 'GET', { Host: host })).status).toBe(200);
    }
    // The API itself answers any Host.
    expect((await raw(`${url}/api/customers`, 'GET', { Host: 'attacker.example' })).status).toBe(401);
  });

  it('with --control-token, requires Authorization: Bearer from any Host', async () => {
    expect((await raw(`${guardedUrl}/__mock/clock`, 'GET')).status).toBe(403);
    expect((await raw(`${guardedUrl}/__mock/clock`, 'GET', { Authorization: 'Bearer wrong' })).status).toBe(403);
    const ok = await raw(`${guardedUrl}/__mock/clock`, 'GET', { Host: 'mock.internal:4010', Authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
  });
});

describe('a request that changes the mock', () => {
  it('needs Content-Type: application/json without a token: a body-less curl -X POST /__mock/reset is 415 and the state is kept', async () => {
    const headers = { 'X-API-Key': key('c'), 'Content-Type': 'application/json' };
    const created = await fetch(`${url}/api/customers`, { method: 'POST', headers, body: JSON.stringify(ada) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // What curl -X POST sends (no Content-Type), and what a page can send without a preflight.
    for (const extra of [{}, { 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/x-www-form-urlencoded' }] as Record<string, string>[]) {
      const refused = await raw(`${url}/__mock/reset`, 'POST', { Origin: 'http://localhost:3000', ...extra });
      expect(refused.status).toBe(415);
      expect(JSON.parse(refused.text)).toEqual({
        error: 'Unsupported Media Type',
        message: expect.stringContaining('needs Content-Type: application/json, even without a body'),
      });
    }
    for (const [method, path] of [['POST', '/__mock/sellers'], ['POST', '/__mock/deliveries/retry'], ['DELETE', '/__mock/requests'], ['DELETE', '/__mock/clock']]) {
      expect((await raw(`${url}${path}`, method!, { 'Content-Type': 'text/plain' }, '{}')).status).toBe(415);
    }
    expect((await fetch(`${url}/api/customers/${id}`, { headers })).status).toBe(200);
    expect((await raw(`${url}/__mock/requests`, 'GET')).text).toContain(`"path":"/api/customers/${id}"`);
    // With the JSON content type, body or not, it acts.
    expect((await raw(`${url}/__mock/reset`, 'POST', { 'Content-Type': 'application/json' })).status).toBe(204);
    expect((await fetch(`${url}/api/customers/${id}`, { headers })).status).toBe(404);
  });

  it('with --control-token, needs the token, which stands in for the content type', async () => {
    expect((await raw(`${guardedUrl}/__mock/reset`, 'POST', { 'Content-Type': 'application/json' })).status).toBe(403);
    expect((await raw(`${guardedUrl}/__mock/reset`, 'POST', { Authorization: `Bearer ${TOKEN}` })).status).toBe(204);
  });

  it('refuses a Host that only starts like [::1]', async () => {
    for (const host of ['[::1].evil.example', '[::1].evil.example:4010']) {
      const refused = await raw(`${url}/__mock/clock`, 'GET', { Host: host });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain(`(got ${host})`);
    }
  });
});
