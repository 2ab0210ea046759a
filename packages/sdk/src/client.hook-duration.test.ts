import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, ID, json, KEY } from '../test/helpers/fixtures';
import { CustomersClient, type Fetch } from './client';

afterEach(() => {
  vi.useRealTimers();
});

describe('the onResponse hook', () => {
  it('gets how long the answer took (durationMs), from sending to the response', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const durations: number[] = [];
    const fetch: Fetch = () => new Promise((resolve) => setTimeout(() => resolve(json(ADA)), 120));
    const client = new CustomersClient({ apiKey: KEY, fetch, hooks: { onResponse: ({ durationMs }) => void durations.push(durationMs) } });
    const pending = client.customers.get(ID);
    await vi.advanceTimersByTimeAsync(120);
    await expect(pending).resolves.toEqual(ADA);
    expect(durations).toEqual([120]);
  });
});
