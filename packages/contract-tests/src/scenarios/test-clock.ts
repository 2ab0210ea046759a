import { SCOPES } from '@customers-api/core';
import { expect } from 'vitest';
import { send } from '../support/http.js';
import type { Scenario } from './scenario.js';

// The test clock (issue 38): each operation with each status a client can provoke (not 429 or 500: the server's
// own files cause those), on every stateful target. The mocks' test clock is their one clock, shared by every
// seller of the run: it moves by a second here, nothing a neighbouring scenario could notice. Times differ per
// target, so successes are recorded by status and shape; refusals with their bodies (core's words everywhere).

export const testClockScenarios: Scenario[] = [
  {
    name: 'test clock: a test key reads and moves it forward; going back, bad bodies, live keys and no key are refused',
    ownKeyModes: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const key = await target.restrictedKey!(seller, [...SCOPES], 'test');
      const read = await send(target, 'GET', '/api/test_clock', { key });
      expect(read.status).toBe(200);
      t.record('read', read.status, Object.keys(read.json).sort());
      const before = Date.parse(read.json.now);

      const advanced = await send(target, 'POST', '/api/test_clock', { key, body: { advance_ms: 1000 } });
      expect(advanced.status).toBe(200);
      expect(Date.parse(advanced.json.now)).toBeGreaterThanOrEqual(before + 1000);
      t.record('advance a second', advanced.status, Object.keys(advanced.json).sort());
      const target2 = new Date(Date.parse(advanced.json.now) + 1000).toISOString();
      const set = await send(target, 'POST', '/api/test_clock', { key, body: { now: target2 } });
      expect(set.status).toBe(200);
      expect(Date.parse(set.json.now)).toBeGreaterThanOrEqual(Date.parse(target2));
      t.record('set a second on', set.status, undefined);

      const back = await send(target, 'POST', '/api/test_clock', { key, body: { now: '2020-01-01T00:00:00Z' } });
      expect(back.status).toBe(400);
      expect(back.json.message).toMatch(/^now: the test clock cannot go back: 2020-01-01T00:00:00\.000Z is before its now, /);
      t.record('back', back.status, back.json.error);
      for (const [label, body] of [
        ['neither', {}],
        ['both', { now: target2, advance_ms: 1 }],
        ['negative', { advance_ms: -1 }],
        ['not an instant', { now: 'tomorrow' }],
        ['unknown property', { advance_ms: 1, speed: 2 }],
      ] as const) {
        const refused = await send(target, 'POST', '/api/test_clock', { key, body });
        expect(refused.status, label).toBe(400);
        t.record(label, refused.status, refused.json);
      }
      const plain = await send(target, 'POST', '/api/test_clock', { key, raw: '{"advance_ms":1}', contentType: 'text/plain' });
      t.record('text/plain', plain.status, plain.json);
      expect(plain.status).toBe(415);
      const huge = await send(target, 'POST', '/api/test_clock', { key, raw: JSON.stringify({ advance_ms: 1, pad: 'x'.repeat(70_000) }) });
      t.record('over 64 KiB', huge.status, huge.json);
      expect(huge.status).toBe(413);
      const badVersion = await send(target, 'GET', '/api/test_clock', { key, headers: { 'customers-version': '2020-13-01' } });
      t.record('bad version', badVersion.status, badVersion.json?.error);
      expect(badVersion.status).toBe(400);

      for (const [method, body] of [['GET', undefined], ['POST', { advance_ms: 1 }]] as const) {
        const live = await send(target, method, '/api/test_clock', { key: seller.key, body });
        t.record(`${method} live key`, live.status, live.json);
        expect(live.status).toBe(403);
        const none = await send(target, method, '/api/test_clock', { body });
        t.record(`${method} no key`, none.status, none.json?.error);
        expect(none.status).toBe(401);
      }
    },
  },
];
