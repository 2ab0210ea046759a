import { describe, expect, it } from 'vitest';
import { refusal } from '../../test/refusal.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { MemoryWebhookStore } from '../store/memory-webhook-store.js';
import type { SellerContext } from '../types.js';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import { descriptionProblem, endpointApiVersion } from './endpoint-rules.js';
import { createWebhookService } from './webhook-service.js';
import type { WebhookStore } from './webhook-store.js';

// The service's options as a host sets them (private URLs, the versions an endpoint may be pinned to, any
// WebhookStore), and the rules the dashboard calls directly.

const seller: SellerContext = { sellerId: 's1', customerLimit: 10 };
const clock = () => '2026-11-27T00:00:00.000Z';
const store = () => new MemoryWebhookStore(new MemoryCustomerStore());

describe('webhook service options', () => {
  it('refuses loopback and private URLs unless the host allows them', async () => {
    const strict = createWebhookService({ store: store(), clock });
    expect(await refusal(strict.createEndpoint(seller, { url: 'http://127.0.0.1:8080/hooks' }))).toMatch(/^400 url /);
    expect(await refusal(strict.createEndpoint(seller, { url: 'http://localhost:8080/hooks' }))).toMatch(/^400 url /);
    const local = createWebhookService({ store: store(), clock, allowPrivate: true });
    expect((await local.createEndpoint(seller, { url: 'http://127.0.0.1:8080/hooks' })).url).toBe('http://127.0.0.1:8080/hooks');
    const { id } = await local.createEndpoint(seller, { url: 'https://a.example.com/h' });
    expect((await local.updateEndpoint(seller, id, { url: 'http://10.0.0.2/h' })).url).toBe('http://10.0.0.2/h');
  });

  it('pins to the versions still open on the service clock’s day, the newest by default', async () => {
    const versions = [
      { version: '2026-11-26', summary: 'latest' },
      { version: '2026-06-01', summary: 'older', sunset: '2026-11-28' },
      { version: '2026-01-01', summary: 'gone', sunset: '2026-11-27' },
    ];
    const webhooks = createWebhookService({ store: store(), clock, versions });
    expect((await webhooks.createEndpoint(seller, { url: 'https://a.example.com/1', api_version: '2026-06-01' })).api_version).toBe('2026-06-01');
    expect(await refusal(webhooks.createEndpoint(seller, { url: 'https://a.example.com/2', api_version: '2026-01-01' }))).toBe(
      '400 api_version must be one of: 2026-11-26, 2026-06-01',
    );
    expect((await webhooks.createEndpoint(seller, { url: 'https://a.example.com/3' })).api_version).toBe('2026-11-26');
    // No open version at all: the latest this build knows.
    const none = createWebhookService({ store: store(), clock, versions: [] });
    expect((await none.createEndpoint(seller, { url: 'https://a.example.com/4' })).api_version).toBe(LATEST_API_VERSION);
  });

  it('answers a replay its store no longer finds the endpoint for (deleted meanwhile) as a missing endpoint', async () => {
    const memory = store();
    const racing: WebhookStore = Object.assign(Object.create(memory) as WebhookStore, {
      findEndpoint: memory.findEndpoint.bind(memory),
      insertEndpoint: memory.insertEndpoint.bind(memory),
      replayEvents: async () => ({ kind: 'not_found' as const }),
    });
    const webhooks = createWebhookService({ store: racing, clock });
    const { id } = await webhooks.createEndpoint(seller, { url: 'https://a.example.com/h' });
    expect(await refusal(webhooks.replay(seller, id, { since: '2026-11-26T00:00:00Z' }))).toBe('404 Webhook endpoint not found');
  });
});

describe('endpoint rules the dashboard calls directly', () => {
  it('names a description past 200 characters, counted as characters', () => {
    expect(descriptionProblem('x'.repeat(200))).toBeUndefined();
    expect(descriptionProblem('😀'.repeat(200))).toBeUndefined();
    expect(descriptionProblem('x'.repeat(201))).toBe('description must be at most 200 characters');
    expect(descriptionProblem('')).toBeUndefined();
  });

  it('lists every version an endpoint may be pinned to', () => {
    expect(endpointApiVersion('2026-06-01', ['2026-11-26', '2026-06-01'])).toBe('2026-06-01');
    expect(() => endpointApiVersion('2020-01-01', ['2026-11-26', '2026-06-01'])).toThrow('api_version must be one of: 2026-11-26, 2026-06-01');
  });
});
