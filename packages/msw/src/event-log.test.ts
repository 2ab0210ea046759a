import type { CustomerEvent } from '@customers-api/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventLog, eventMatcher } from './event-log.js';

const customer = { id: 'c1', seller_id: 's1' };
const event = (type: CustomerEvent['type'], sequence: number, id = 'c1') =>
  ({ id: `evt_${sequence}`, type, created_at: '2030-01-01T00:00:00.000Z', data: { customer: { ...customer, id }, sequence } }) as CustomerEvent;
const is = (type: CustomerEvent['type']) => (candidate: CustomerEvent) => candidate.type === type;

afterEach(() => vi.useRealTimers());

describe('createEventLog', () => {
  it('hands out kept events oldest first, each once, skipping the ones that do not match', async () => {
    const log = createEventLog();
    log.record(event('customer.created', 1));
    log.record(event('customer.updated', 2));
    log.record(event('customer.updated', 3));
    expect((await log.next(is('customer.updated'), 'customer.updated')).data.sequence).toBe(2);
    expect((await log.next(() => true, 'customer')).data.sequence).toBe(1);
    expect((await log.next(() => true, 'customer')).data.sequence).toBe(3);
    expect(log.events().map((kept) => kept.data.sequence)).toEqual([1, 2, 3]); // taken or not
  });

  it('resolves waits with later events, oldest wait first, and never gives one event to two waits', async () => {
    const log = createEventLog();
    const first = log.next(is('customer.created'), 'customer.created');
    const second = log.next(is('customer.created'), 'customer.created');
    const deleted = log.next(is('customer.deleted'), 'customer.deleted');
    log.record(event('customer.created', 1, 'a'));
    log.record(event('customer.deleted', 2, 'a'));
    log.record(event('customer.created', 1, 'b'));
    expect((await first).data.customer.id).toBe('a');
    expect((await second).data.customer.id).toBe('b');
    expect((await deleted).data.sequence).toBe(2);
  });

  it('rejects after the timeout naming what it waited for and the events not taken, and stops waiting', async () => {
    vi.useFakeTimers();
    const log = createEventLog();
    log.record(event('customer.created', 1));
    const waiting = log.next(is('customer.deleted'), 'customer.deleted', { timeoutMs: 50 });
    const rejected = expect(waiting).rejects.toThrow('no customer.deleted event within 50 ms (events not taken: customer.created)');
    await vi.advanceTimersByTimeAsync(50);
    await rejected;
    log.record(event('customer.deleted', 2)); // no longer waited for: kept for the next wait
    expect((await log.next(is('customer.deleted'), 'customer.deleted')).data.sequence).toBe(2);
  });

  it('forgets kept events on clear, while a wait under way goes on', async () => {
    const log = createEventLog();
    log.record(event('customer.created', 1));
    const waiting = log.next(is('customer.updated'), 'customer.updated');
    log.clear();
    expect(log.events()).toEqual([]);
    log.record(event('customer.updated', 2));
    expect((await waiting).data.sequence).toBe(2);
  });

  it('gives copies: editing an event taken does not change the kept one', async () => {
    const log = createEventLog();
    log.record(event('customer.created', 1));
    const taken = await log.next(() => true, 'customer');
    taken.data.sequence = 7;
    expect(log.events()[0]!.data.sequence).toBe(1);
  });
});

describe('eventMatcher', () => {
  it('reads a type, a type and a test, or a test, then options', () => {
    const byType = eventMatcher(['customer.updated', { timeoutMs: 5 }]);
    expect([byType.description, byType.options, byType.matches(event('customer.updated', 2)), byType.matches(event('customer.created', 1))]).toEqual([
      'customer.updated',
      { timeoutMs: 5 },
      true,
      false,
    ]);
    const noTest = eventMatcher(['customer.updated', undefined, { timeoutMs: 7 }]);
    expect([noTest.description, noTest.options, noTest.matches(event('customer.updated', 2))]).toEqual(['customer.updated', { timeoutMs: 7 }, true]);
    const both = eventMatcher(['customer.updated', (candidate) => candidate.data.customer.id === 'b']);
    expect([both.description, both.matches(event('customer.updated', 2)), both.matches(event('customer.updated', 2, 'b'))]).toEqual([
      'matching customer.updated',
      false,
      true,
    ]);
    const byTest = eventMatcher([(candidate) => candidate.data.sequence > 1, { timeoutMs: 9 }]);
    expect([byTest.description, byTest.options, byTest.matches(event('customer.created', 1))]).toEqual(['matching', { timeoutMs: 9 }, false]);
    const any = eventMatcher([]);
    expect([any.description, any.options, any.matches(event('customer.deleted', 3))]).toEqual(['customer', undefined, true]);
  });
});
