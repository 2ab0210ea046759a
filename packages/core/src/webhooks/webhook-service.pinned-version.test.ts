import { describe, expect, it } from 'vitest';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { MemoryWebhookStore } from '../store/memory-webhook-store.js';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import { createWebhookService } from './webhook-service.js';

// openapi.yaml (and the dashboard's spec): an endpoint registered without api_version gets "the seller's pinned
// version". The dashboard and the public API share this service, so the rule holds for both.

describe('the version a new endpoint is pinned to', () => {
  const service = () => createWebhookService({ store: new MemoryWebhookStore(new MemoryCustomerStore()), clock: () => '2026-11-27T00:00:00.000Z' });

  it("is the seller's pinned version, even one this build no longer lists; the latest when the seller has none", async () => {
    const webhooks = service();
    const pinned = await webhooks.createEndpoint({ sellerId: 's1', customerLimit: 0, apiVersion: '2026-06-01' }, { url: 'https://a.example.com/h' });
    expect(pinned.api_version).toBe('2026-06-01');
    const unpinned = await webhooks.createEndpoint({ sellerId: 's2', customerLimit: 0, apiVersion: null }, { url: 'https://a.example.com/h' });
    expect(unpinned.api_version).toBe(LATEST_API_VERSION);
  });

  it('is the one asked for when the body names one', async () => {
    const chosen = await service().createEndpoint({ sellerId: 's1', customerLimit: 0, apiVersion: '2026-06-01' }, { url: 'https://a.example.com/h', api_version: LATEST_API_VERSION });
    expect(chosen.api_version).toBe(LATEST_API_VERSION);
  });
});
