import type { MockApi } from '@customers-api/core';
import { CONTROL_PREFIX } from './control-api.js';
import type { WebhookEndpoint } from './webhook-dispatcher.js';

/**
 * What the mock prints when it starts: where it listens, the keys that work, the webhook endpoints with their
 * secrets (a receiver needs them to verify; generated ones are shown nowhere else but the control API), one curl
 * example and where the control API is.
 *
 * @example
 * console.log(banner('http://127.0.0.1:4010', mock.api, mock.webhooks.list()));
 */
export function banner(url: string, api: MockApi, endpoints: WebhookEndpoint[] = []): string {
  const lines = [`Customers API mock (stateful) listening on ${url}`];
  if (api.defaultSeller) {
    lines.push(`No sellers seeded: any sk_live_ + 48 letters/digits key is the default seller ${api.defaultSeller.sellerId} (plan limit ${api.defaultSeller.customerLimit}), e.g.`);
    lines.push(`  ${api.defaultSeller.apiKey}`);
  } else {
    lines.push(`Seeded keys (first key of each seller; see the seed file for all):`);
    for (const seller of api.sellers) lines.push(`  ${seller.apiKey}  seller ${seller.sellerId}, plan limit ${seller.customerLimit}`);
  }
  if (endpoints.length > 0) lines.push('Webhooks (signed POSTs of every change; Standard Webhooks headers):');
  for (const endpoint of endpoints) {
    const whose = endpoint.sellerId === null ? 'every seller' : `seller ${endpoint.sellerId}`;
    lines.push(`  ${endpoint.url}  ${endpoint.events.join(', ')} of ${whose}`, `    secret ${endpoint.secret}`);
  }
  const key = api.defaultSeller?.apiKey ?? api.sellers[0]?.apiKey ?? 'sk_live_...';
  lines.push(
    'Try:',
    `  curl -i -X POST ${url}/api/customers -H 'X-API-Key: ${key}' -H 'Content-Type: application/json' \\`,
    `    -d '{"first_name":"Grace","last_name":"Hopper","email":"grace.hopper@example.com"}'`,
    `Control API: ${url}${CONTROL_PREFIX} (openapi.mock-control.yaml); Ctrl-C stops.`,
  );
  return lines.join('\n');
}
