import { describe, expect, it } from 'vitest';
import { CursorPage, type CursorPageBody, type NextPageRequest, PagePromise } from './pagination';

// Pages of the numbers 1..n, `size` at a time, with the cursor the offset; records what each page asked for.
function pages(n: number) {
  const asked: Array<{ cursor: string; limit?: number }> = [];
  const body = (offset: number, size: number): CursorPageBody<number> => {
    const data = Array.from({ length: Math.max(0, Math.min(size, n - offset)) }, (_, i) => offset + i + 1);
    const has_more = offset + size < n;
    return { data, has_more, next_cursor: has_more ? String(offset + size) : null };
  };
  const answer = (b: CursorPageBody<number>) => Promise.resolve({ data: b, response: new Response(null, { status: 200 }) });
  const promise = (offset: number, size: number): PagePromise<number> =>
    new PagePromise(() => answer(body(offset, size)), (next) => {
      asked.push(next);
      return promise(Number(next.cursor), next.limit ?? size);
    });
  return { first: (size: number) => promise(0, size), asked };
}

const unused: NextPageRequest<number> = () => {
  throw new Error('not expected');
};

describe('CursorPage', () => {
  it('has a next page only with has_more and a cursor', () => {
    expect(new CursorPage({ data: [], has_more: true, next_cursor: 'c' }, unused).hasNextPage()).toBe(true);
    expect(new CursorPage({ data: [], has_more: false, next_cursor: null }, unused).hasNextPage()).toBe(false);
    const odd = new CursorPage({ data: [], has_more: true, next_cursor: null }, unused);
    expect(odd.hasNextPage()).toBe(false);
    expect(() => odd.getNextPage()).toThrow('check hasNextPage()');
  });

  it('asks for the next page with the cursor, adding limit only when given', async () => {
    const { first, asked } = pages(5);
    const page = await first(2);
    await page.getNextPage();
    await page.getNextPage({ limit: 3 });
    expect(asked).toEqual([{ cursor: '2' }, { cursor: '2', limit: 3 }]);
  });

  it('iterates items and pages from itself onwards', async () => {
    const { first } = pages(5);
    const page = await first(2);
    const items = [];
    for await (const n of page) items.push(n);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    const sizes = [];
    for await (const p of page.iterPages()) sizes.push(p.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });
});

describe('PagePromise', () => {
  it('is a promise of the first page and an async iterable over every item', async () => {
    const { first } = pages(3);
    expect((await first(2)).data).toEqual([1, 2]);
    const items = [];
    for await (const n of first(2)) items.push(n);
    expect(items).toEqual([1, 2, 3]);
  });

  it('stops early when the loop breaks, without asking for more pages', async () => {
    const { first, asked } = pages(10);
    for await (const n of first(2)) if (n === 2) break;
    expect(asked).toEqual([]);
  });

  it('rejects the iteration when the first page fails', async () => {
    const failing = new PagePromise<number>(() => Promise.reject(new Error('boom')), unused);
    await expect((async () => {
      for await (const _ of failing) throw new Error('no item expected');
    })()).rejects.toThrow('boom');
  });
});
