import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import type { Customer, SellerContext } from '../types.js';
import { createCustomerService, type CustomerService } from './customer-service.js';

const seller: SellerContext = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 1000 };
const other: SellerContext = { sellerId: '11111111-2222-4333-8444-555555555555', customerLimit: 1000 };

let service: CustomerService;
let created: Customer[];
beforeEach(async () => {
  service = createCustomerService({ store: new MemoryCustomerStore() });
  created = [];
  for (let i = 0; i < 7; i++) {
    const { customer } = await service.create(seller, {
      first_name: `C${i}`,
      last_name: 'L',
      email: `c${i}@example.com`,
      status: i % 3 === 0 ? 'suspended' : 'active',
    });
    created.push(customer);
  }
  await service.create(other, { first_name: 'O', last_name: 'L', email: 'c0@example.com' });
});

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.message;
    throw error;
  }
  throw new Error('expected a 400');
}

/** Every page of a walk, following next_cursor with the same filters. */
async function walk(query: string, limits: number[] = [3]): Promise<Customer[][]> {
  const pages: Customer[][] = [];
  let cursor: string | null = null;
  do {
    const limit = limits[pages.length % limits.length] ?? 3;
    const page = await service.list(seller, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(page.data);
    expect(page.has_more).toBe(page.next_cursor !== null);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

describe('list', () => {
  it('answers the first 20 newest first by default, only the seller’s own', async () => {
    const page = await service.list(seller, '');
    expect(page).toEqual({ data: [...created].reverse(), has_more: false, next_cursor: null });
  });

  it('walks every page, with a page size that may change between pages', async () => {
    const pages = await walk('', [3, 1, 2]);
    expect(pages.map((p) => p.length)).toEqual([3, 1, 2, 1]);
    expect(pages.flat()).toEqual([...created].reverse());
  });

  it('filters by status, by created_at bounds and by email (any letter case), and combines them', async () => {
    const suspended = created.filter((c) => c.status === 'suspended').reverse();
    expect((await walk('status=suspended', [1])).flat()).toEqual(suspended);
    const from = created[2]!.created_at;
    const before = created[5]!.created_at;
    const bounded = (await service.list(seller, `created_after=${from}&created_before=${before}`)).data;
    expect(bounded).toEqual(created.slice(2, 5).reverse());
    expect((await service.list(seller, 'email=C4%40Example.COM')).data).toEqual([created[4]]);
    expect((await service.list(seller, 'email=nobody%40example.com')).data).toEqual([]);
    expect((await service.list(seller, 'email=c3%40example.com&status=active')).data).toEqual([]);
    // A time zone offset names the same instant.
    const offset = new Date(Date.parse(from)).toISOString().replace('Z', '+00:00');
    expect((await service.list(seller, `created_after=${encodeURIComponent(offset)}`)).data).toHaveLength(5);
  });

  it('keeps a cursor valid after the customer it came from is deleted', async () => {
    const first = await service.list(seller, 'limit=2');
    await service.delete(seller, first.data[1]!.id);
    const next = await service.list(seller, `limit=2&cursor=${first.next_cursor}`);
    expect(next.data).toEqual([created[4], created[3]]);
  });

  it('refuses a cursor of another seller, of other filters, or that does not parse, naming cursor', async () => {
    const { next_cursor } = await service.list(seller, 'limit=1&status=active');
    const message = 'cursor is not valid for this query; pass the next_cursor of the previous page with the same filters';
    expect(await rejection(service.list(other, `cursor=${next_cursor}&status=active`))).toBe(message);
    expect(await rejection(service.list(seller, `cursor=${next_cursor}`))).toBe(message);
    expect(await rejection(service.list(seller, `cursor=${next_cursor}&status=suspended`))).toBe(message);
    for (const garbage of ['x', 'eyJ2IjoxfQ', btoa('{"v":1,"c":"2026","i":"x","s":"0"}'), '%00', btoa('null')]) {
      expect(await rejection(service.list(seller, `cursor=${encodeURIComponent(garbage)}`)), garbage).toBe(message);
    }
    // The limit may change, and is not part of a cursor's scope.
    expect((await service.list(seller, `limit=5&status=active&cursor=${next_cursor}`)).data).toHaveLength(3);
  });

  it('compares instants: the ends of the range and extreme offsets bound created_at as instants, not as text', async () => {
    const all = [...created].reverse().map((c) => c.id);
    const ids = async (query: string) => (await service.list(seller, `limit=100&${query}`)).data.map((c) => c.id);
    expect(await ids('created_before=9999-12-31T23:59:59.999Z')).toEqual(all);
    expect(await ids('created_before=9999-12-31T23:59:59%2B23:59')).toEqual(all);
    expect(await ids('created_after=0001-01-01T00:00:00Z')).toEqual(all);
    const third = created[2]!.created_at;
    const later = new Date(Date.parse(third) + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(await ids(`created_after=${encodeURIComponent(later)}`)).toEqual(all.slice(0, 5));
    expect(await ids(`created_before=${encodeURIComponent(later)}`)).toEqual(all.slice(5));
    // A part of a millisecond past the third's instant: the third is before it.
    const finer = third.replace('Z', '1Z');
    expect(await ids(`created_after=${encodeURIComponent(finer)}`)).toEqual(all.slice(0, 4));
    expect(await ids(`created_before=${encodeURIComponent(finer)}`)).toEqual(all.slice(4));
  });

  it('refuses unknown, repeated and malformed parameters, naming the parameter', async () => {
    const cases: Record<string, string> = {
      'limit=0': 'limit must be at least 1',
      'limit=101': 'limit must be at most 100',
      'limit=abc': 'limit must be an integer',
      'limit=2.5': 'limit must be an integer',
      'limit=': 'limit must be an integer',
      'limit=1&limit=2': 'limit must be given at most once',
      'status=gone': 'status must be one of: active, inactive, suspended',
      'email=': 'email must not be empty',
      'created_after=2026-11-25': 'created_after must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z',
      'created_before=2030-02-30T00:00:00Z': 'created_before must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z',
      'created_before=2026-11-25T09:30:00': 'created_before must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z',
      'sort=name': 'sort is not an allowed query parameter',
      '__proto__=x': '__proto__ is not an allowed query parameter',
      [`cursor=${'a'.repeat(513)}`]: 'cursor must be at most 512 characters',
      'limit=0x10': 'limit must be an integer',
      'limit=1e1': 'limit must be an integer',
      'limit=%205': 'limit must be an integer',
      'limit=5%20': 'limit must be an integer',
      'limit=+5': 'limit must be an integer',
      'limit=%2B5': 'limit must be an integer',
      'limit=-5': 'limit must be an integer',
      'limit=5.0': 'limit must be an integer',
      'limit=01': 'limit must be an integer',
      'limit=%EF%BC%95': 'limit must be an integer',
      'email=a%00b@x.de': 'email must not contain U+0000',
      'status=active%00': 'status must not contain U+0000',
      'limit=%00': 'limit must not contain U+0000',
      'cursor=%00': 'cursor must not contain U+0000',
      'created_after=%00': 'created_after must not contain U+0000',
      'created_before=2026-11-25T09:30:00Z%00': 'created_before must not contain U+0000',
      'a%00b=1': 'query parameter names must not contain U+0000',
      'created_after=0000-01-01T00:00:00Z': 'created_after must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
      'created_after=0001-01-01T00:00:00%2B23:59': 'created_after must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
      'created_before=9999-12-31T23:59:59-23:59': 'created_before must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
    };
    for (const [query, message] of Object.entries(cases)) {
      expect(await rejection(service.list(seller, query)), query).toBe(message);
    }
  });
});
