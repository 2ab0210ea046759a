import type { CustomerEvent, EventListParams } from '@customers-api/sdk';
import { describe, expect, it } from 'vitest';
import { EventPoller, OVERLAP_MS } from './event-poller';

// A fake events list with the API's order and created_after filter (inclusive), recording each query.
function fakeList() {
  const events: CustomerEvent[] = [];
  const queries: EventListParams[] = [];
  let n = 0;
  return {
    queries,
    add(at: string, type: CustomerEvent['type'] = 'customer.created') {
      const id = `evt_${String(++n).padStart(32, '0')}`;
      events.push({ id, type, created_at: at } as CustomerEvent);
      return id;
    },
    async *list(params: EventListParams) {
      queries.push(params);
      const after = params.created_after === undefined ? -Infinity : new Date(params.created_after).getTime();
      const matching = events
        .filter((e) => Date.parse(e.created_at) >= after && (!params.type || e.type === params.type))
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
      yield* params.limit === 1 ? matching.slice(0, 1) : matching;
    },
  };
}

describe('EventPoller', () => {
  it('hands out only what comes after start, each event once, oldest first', async () => {
    const api = fakeList();
    api.add('2026-11-28T10:00:00.000Z');
    api.add('2026-11-28T10:00:05.000Z');
    const poller = new EventPoller((p) => api.list(p));
    await poller.start();
    expect(await poller.poll()).toEqual([]);
    const b = api.add('2026-11-28T10:00:07.000Z');
    const a = api.add('2026-11-28T10:00:06.000Z'); // committed later, created earlier: still inside the overlap
    expect((await poller.poll()).map((e) => e.id)).toEqual([a, b]);
    expect(await poller.poll()).toEqual([]);
    expect(api.queries.at(-1)!.created_after).toEqual(new Date(Date.parse('2026-11-28T10:00:07.000Z') - OVERLAP_MS));
  });

  it('with no event at start, hands out every event that appears', async () => {
    const api = fakeList();
    const poller = new EventPoller((p) => api.list(p));
    await poller.start();
    const first = api.add('2026-11-28T10:00:00.000Z');
    expect((await poller.poll()).map((e) => e.id)).toEqual([first]);
    expect(api.queries.at(-1)!.created_after).toBeUndefined();
    const second = api.add('2026-11-28T11:00:00.000Z');
    expect((await poller.poll()).map((e) => e.id)).toEqual([second]);
  });

  it('passes its type filter to every query', async () => {
    const api = fakeList();
    api.add('2026-11-28T10:00:00.000Z', 'customer.deleted');
    const poller = new EventPoller((p) => api.list(p), { type: 'customer.created' });
    await poller.start();
    api.add('2026-11-28T10:00:01.000Z', 'customer.deleted');
    const created = api.add('2026-11-28T10:00:02.000Z');
    expect((await poller.poll()).map((e) => e.id)).toEqual([created]);
    expect(api.queries.every((q) => q.type === 'customer.created')).toBe(true);
  });
});
