// The control API is for test code on this machine: a web page (CORS) or a DNS-rebinding name (Host) cannot use it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';
import { raw } from './support.js';

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
