import type { WebhookEndpoint } from '../types.js';
import type { StoredWebhookEndpoint } from './webhook-store.js';

/**
 * An endpoint as the API answers it: never a secret, and `previous_secret_expires_at` null once that time passed.
 *
 * @example
 * const body = endpointBody(stored, '2026-11-27T00:00:00.000Z');
 */
export function endpointBody(endpoint: StoredWebhookEndpoint, now: string): WebhookEndpoint {
  const overlap = endpoint.previousSecretExpiresAt;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    api_version: endpoint.apiVersion,
    disabled: endpoint.disabledAt !== null,
    disabled_at: endpoint.disabledAt,
    failing: endpoint.failingSince !== null,
    failing_since: endpoint.failingSince,
    previous_secret_expires_at: overlap !== null && overlap > now ? overlap : null,
    created_at: endpoint.createdAt,
  };
}
