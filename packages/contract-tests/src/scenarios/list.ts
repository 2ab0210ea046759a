import { expect } from 'vitest';
import { send, type RawResponse } from '../support/http.js';
import type { Target, TargetSeller } from '../targets/target.js';
import type { Transcript } from '../support/transcript.js';
import { ada, type Scenario } from './scenario.js';

interface Page {
  data: Array<{ id: string; email: string; status: string }>;
  has_more: boolean;
  next_cursor: string | null;
}

/** Records a list answer with its cursor (an opaque position, different on every target) as a placeholder. */
function recordPage(t: Transcript, label: string, response: RawResponse): Page {
  const page = response.json as Page;
  const cursor = page && typeof page === 'object' && 'next_cursor' in page;
  t.record(label, response.status, cursor ? { ...page, next_cursor: page.next_cursor && '<cursor>' } : response.json);
  return page;
}

async function createMany(target: Target, seller: TargetSeller, n: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = { ...ada(`${label}${i}`), status: i % 3 === 0 ? 'suspended' : 'active' };
    const created = await send(target, 'POST', '/api/customers', { key: seller.key, body });
    expect(created.status).toBe(201);
    ids.push(created.json.id);
  }
  return ids;
}

/** Every id of a walk over the pages, `between` run after each page (to change the data mid-walk). */
async function walk(target: Target, key: string, query: string, between: (pageNo: number) => Promise<void> = async () => {}) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pageNo = 0; ; pageNo++) {
    const url = `/api/customers?limit=${1 + (pageNo % 3)}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await send(target, 'GET', url, { key });
    expect(response.status, url).toBe(200);
    const page = response.json as Page;
    seen.push(...page.data.map((c) => c.id));
    if (!page.has_more) return seen;
    cursor = page.next_cursor;
    await between(pageNo);
  }
}

/** GET /api/customers: pages, filters, finding by email, its 400s, and the keyset guarantee under writes. */
export const listScenarios: Scenario[] = [
  {
    name: 'list pages newest first, filters by status and finds by email; another seller sees none',
    async run(target, t) {
      const seller = await target.newSeller();
      const ids = await createMany(target, seller, 5, 'list');
      const first = recordPage(t, 'first page', await send(target, 'GET', '/api/customers?limit=2', { key: seller.key }));
      expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
      expect(first.has_more).toBe(true);
      const rest = recordPage(t, 'next page', await send(target, 'GET', `/api/customers?limit=10&cursor=${encodeURIComponent(first.next_cursor!)}`, { key: seller.key }));
      expect(rest).toMatchObject({ has_more: false, next_cursor: null });
      expect(rest.data.map((c) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
      const suspended = recordPage(t, 'suspended', await send(target, 'GET', '/api/customers?status=suspended', { key: seller.key }));
      expect(suspended.data.map((c) => c.id)).toEqual([ids[3], ids[0]]);
      const tagged = await send(target, 'POST', '/api/customers', { key: seller.key, body: { ...ada(), email: 'Ada+Tag@Example.com' } });
      const found = recordPage(t, 'by email', await send(target, 'GET', `/api/customers?email=${encodeURIComponent('ada+tag@example.COM')}`, { key: seller.key }));
      expect(found.data.map((c) => c.id)).toEqual([tagged.json.id]);
      const unencoded = recordPage(t, 'by email with a raw +', await send(target, 'GET', '/api/customers?email=ada+tag@example.com', { key: seller.key }));
      expect(unencoded.data).toEqual([]);
      const other = await target.newSeller();
      expect(recordPage(t, 'other seller', await send(target, 'GET', '/api/customers', { key: other.key }))).toEqual({ data: [], has_more: false, next_cursor: null });
    },
  },
  {
    // Prism is exempt (a static mock does not validate values this far); every other target shares core's rules.
    name: 'list refuses instants outside 0001…9999, U+0000 in any parameter and any limit not in plain digits, naming the parameter',
    async run(target, t) {
      const seller = await target.newSeller();
      const ids = (await createMany(target, seller, 3, 'listedge')).reverse();
      const range = /^(created_after|created_before) must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59\.999Z$/;
      const cases: Array<[string, RegExp]> = [
        ['created_after=0000-01-01T00:00:00Z', range],
        ['created_before=0000-01-01T00:00:00Z', range],
        ['created_after=0001-01-01T00:00:00%2B23:59', range],
        ['created_before=9999-12-31T23:59:59-23:59', range],
        ...['limit', 'cursor', 'email', 'status', 'created_after', 'created_before'].map(
          (name): [string, RegExp] => [`${name}=a%00b@x.de`, new RegExp(`^${name} must not contain U\\+0000$`)],
        ),
        ...['0x10', '1e1', '%205', '%2B5', '-5', '5.0', '01'].map((v): [string, RegExp] => [`limit=${v}`, /^limit must be an integer$/]),
      ];
      for (const [query, message] of cases) {
        const response = recordPage(t, query, await send(target, 'GET', `/api/customers?${query}`, { key: seller.key }));
        expect({ status: t.steps.at(-1)!.status, body: response }, query).toEqual({ status: 400, body: { error: 'Bad Request', message: expect.stringMatching(message) } });
      }
      // The ends of the range, and an end written with an extreme offset, are instants like any other.
      for (const query of ['created_after=0001-01-01T00:00:00Z', 'created_before=9999-12-31T23:59:59.999Z', 'created_before=9999-12-31T23:59:59%2B23:59']) {
        const page = recordPage(t, query, await send(target, 'GET', `/api/customers?${query}`, { key: seller.key }));
        expect(page.data.map((c) => c.id), query).toEqual(ids);
      }
    },
  },
  {
    name: 'list answers 400 naming the parameter, and a cursor only for its own seller and filters',
    async run(target, t) {
      const seller = await target.newSeller();
      await createMany(target, seller, 3, 'listbad');
      const cases: Record<string, RegExp> = {
        'limit=0': /^limit must be at least 1$/,
        'limit=101': /^limit must be at most 100$/,
        'limit=ten': /^limit must be an integer$/,
        'status=deleted': /^status must be one of/,
        'created_after=2026-11-25': /^created_after must be an ISO 8601 date-time/,
        'status=active&status=inactive': /^status must be given at most once$/,
        'order=asc': /^order is not an allowed query parameter$/,
        'cursor=nonsense': /^cursor is not valid for this query/,
      };
      for (const [query, message] of Object.entries(cases)) {
        const response = recordPage(t, query, await send(target, 'GET', `/api/customers?${query}`, { key: seller.key }));
        expect({ status: t.steps.at(-1)!.status, body: response }, query).toEqual({ status: 400, body: { error: 'Bad Request', message: expect.stringMatching(message) } });
      }
      const { next_cursor } = (await send(target, 'GET', '/api/customers?limit=1&status=active', { key: seller.key })).json as Page;
      const other = await target.newSeller();
      for (const [label, key, query] of [['other seller', other.key, '&status=active'], ['other filters', seller.key, '']] as const) {
        const response = await send(target, 'GET', `/api/customers?cursor=${encodeURIComponent(next_cursor!)}${query}`, { key });
        t.record(`cursor of ${label}`, response.status, response.json);
        expect(response.status, label).toBe(400);
      }
    },
  },
  {
    name: 'walking every page while customers are created and deleted never repeats or skips one',
    async run(target, t) {
      const seller = await target.newSeller();
      const ids = await createMany(target, seller, 12, 'walk');
      const deleted = new Set<string>();
      const seen = await walk(target, seller.key, '', async (pageNo) => {
        await send(target, 'POST', '/api/customers', { key: seller.key, body: ada(`walknew${pageNo}`) });
        const victim = ids[(pageNo * 5 + 3) % ids.length]!;
        if (!deleted.has(victim)) {
          expect((await send(target, 'DELETE', `/api/customers/${victim}`, { key: seller.key })).status).toBe(204);
          deleted.add(victim);
        }
      });
      t.record('walk', 200, { pages: 'walked' });
      expect(new Set(seen).size, 'no customer twice').toBe(seen.length);
      for (const id of ids) if (!deleted.has(id)) expect(seen, `${id} existed throughout`).toContain(id);
    },
  },
];
