import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { fieldChanges } from '../audit/audit-details.js';
import { audited } from '../audit/audit-log.js';
import { API_VERSIONS, resolveApiVersion, utcDate, type ApiVersion } from '@customers-api/core';
import { findSeller, updateSeller } from '../db/sellers.js';
import { DEFAULT_WEBHOOK_ENDPOINT_LIMIT } from '../webhooks/delivery-fairness.js';
import { DEFAULT_API_KEY_LIMIT } from '../dashboard/key-limit.js';
import { WAITING_DELIVERY_LIMIT } from '../webhooks/delivery-caps.js';
import { CliError, type CliIo } from './io.js';
import { describeSellerRateLimit, sellerRateLimitFrom } from './seller-rate-limit.js';
import { withDatabase } from './with-database.js';
import { printable } from './printable.js';

/** The settings `sellers update` changes: the fields its audit row compares before and after. */
const SELLER_SETTINGS = ['rate_limit', 'webhook_endpoint_limit', 'key_limit', 'waiting_delivery_limit', 'api_version'];

export const SELLERS_UPDATE_USAGE =
  'sellers update SELLER_ID [--rate-limit N|default] [--webhook-endpoint-limit N|default] [--key-limit N|default] [--waiting-delivery-limit N|default] [--api-version YYYY-MM-DD] [--json] [--database URL]';

/** The largest cap on a seller's webhook endpoints the CLI accepts. */
const MAX_WEBHOOK_ENDPOINT_LIMIT = 10_000;
/** The largest cap on a seller's unexpired API keys the CLI accepts. */
const MAX_KEY_LIMIT = 10_000;
/** The largest cap on a seller's waiting webhook deliveries the CLI accepts. */
const MAX_WAITING_DELIVERY_LIMIT = 10_000_000;

/**
 * `--waiting-delivery-limit`: how many webhook deliveries of the seller may wait before new events' deliveries are
 * written skipped (webhooks/delivery-caps.ts), or `default` (the server's, stored as null).
 *
 * @example
 * waitingDeliveryLimitFrom('250000'); // 250000
 */
export function waitingDeliveryLimitFrom(text: string): number | null {
  if (text === 'default') return null;
  if (!/^\d+$/.test(text) || Number(text) > MAX_WAITING_DELIVERY_LIMIT) {
    throw new CliError(`--waiting-delivery-limit must be a whole number from 0 to ${MAX_WAITING_DELIVERY_LIMIT}, or "default", got "${text}"`);
  }
  return Number(text);
}

function describeWaitingLimit(limit: number | null | undefined): string {
  return limit === null || limit === undefined
    ? `the server's waiting-delivery limit (${WAITING_DELIVERY_LIMIT} waiting deliveries)`
    : `up to ${limit} waiting deliveries`;
}

/**
 * `--key-limit`: how many unexpired API keys the seller may hold, or `default` (the server's, stored as null).
 *
 * @example
 * keyLimitFrom('500'); // 500
 */
export function keyLimitFrom(text: string): number | null {
  if (text === 'default') return null;
  if (!/^\d+$/.test(text) || Number(text) > MAX_KEY_LIMIT) {
    throw new CliError(`--key-limit must be a whole number from 0 to ${MAX_KEY_LIMIT}, or "default", got "${text}"`);
  }
  return Number(text);
}

/**
 * `--webhook-endpoint-limit`: how many webhook endpoints the seller may have, or `default` (the server's, stored as null).
 *
 * @example
 * webhookEndpointLimitFrom('25'); // 25
 */
export function webhookEndpointLimitFrom(text: string): number | null {
  if (text === 'default') return null;
  if (!/^\d+$/.test(text) || Number(text) > MAX_WEBHOOK_ENDPOINT_LIMIT) {
    throw new CliError(`--webhook-endpoint-limit must be a whole number from 0 to ${MAX_WEBHOOK_ENDPOINT_LIMIT}, or "default", got "${text}"`);
  }
  return Number(text);
}

/**
 * `--api-version`: a version of the API the seller can be pinned to, by core's rule for `Customers-Version`
 * (one of `x-api-versions`, not past its sunset).
 *
 * @example
 * apiVersionFrom('2026-11-26'); // '2026-11-26'
 */
export function apiVersionFrom(text: string, now: () => Date = () => new Date(), versions: readonly ApiVersion[] = API_VERSIONS): string {
  if (!resolveApiVersion(() => text, now, versions).error) return text;
  const today = utcDate(now());
  const open = versions.filter((entry) => entry.sunset === undefined || today < entry.sunset).map((entry) => entry.version);
  throw new CliError(`--api-version must be one of: ${open.join(', ')}, got "${text}"`);
}

function describeKeyLimit(limit: number | null): string {
  return limit === null ? `the server's API key limit (${DEFAULT_API_KEY_LIMIT} unexpired keys)` : `up to ${limit} unexpired API keys`;
}

function describeEndpointLimit(limit: number | null): string {
  return limit === null ? `the server's webhook endpoint limit (${DEFAULT_WEBHOOK_ENDPOINT_LIMIT})` : `up to ${limit} webhook endpoints`;
}

/**
 * Changes a seller's own rate limit, cap on webhook endpoints, cap on unexpired API keys and/or pinned API version;
 * running servers apply them from the seller's next request (a lower cap removes nothing: it refuses new ones).
 */
export async function sellersUpdateCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'rate-limit': { type: 'string' },
      'webhook-endpoint-limit': { type: 'string' },
      'key-limit': { type: 'string' },
      'waiting-delivery-limit': { type: 'string' },
      'api-version': { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [sellerId, ...extra] = positionals;
  const rateText = values['rate-limit'];
  const endpointText = values['webhook-endpoint-limit'];
  const versionText = values['api-version'];
  const keyText = values['key-limit'];
  const waitingText = values['waiting-delivery-limit'];
  if (!sellerId || extra.length > 0 || [rateText, endpointText, versionText, keyText, waitingText].every((text) => text === undefined)) {
    throw new CliError(`Usage: ${SELLERS_UPDATE_USAGE}`, 2);
  }
  const rateLimit = rateText === undefined ? undefined : sellerRateLimitFrom(rateText);
  const endpointLimit = endpointText === undefined ? undefined : webhookEndpointLimitFrom(endpointText);
  const apiVersion = versionText === undefined ? undefined : apiVersionFrom(versionText);
  const keyLimit = keyText === undefined ? undefined : keyLimitFrom(keyText);
  const waitingLimit = waitingText === undefined ? undefined : waitingDeliveryLimitFrom(waitingText);
  const updated = await withDatabase(values.database, io, (handle) =>
    audited(
      handle,
      CLI_ACTOR,
      async (trx) => {
        const before = await findSeller(trx, sellerId);
        const after = await updateSeller(trx, sellerId, {
          ...(rateLimit !== undefined && { rate_limit: rateLimit }),
          ...(endpointLimit !== undefined && { webhook_endpoint_limit: endpointLimit }),
          ...(keyLimit !== undefined && { key_limit: keyLimit }),
          ...(waitingLimit !== undefined && { waiting_delivery_limit: waitingLimit }),
          ...(apiVersion !== undefined && { api_version: apiVersion }),
        });
        return after && before ? { after, details: fieldChanges(before, after, SELLER_SETTINGS) } : undefined;
      },
      (updated) => updated && { sellerId: updated.after.id, action: 'seller.updated', targetId: updated.after.id, details: updated.details },
    ),
  );
  const seller = updated?.after;
  if (!seller) throw new CliError(`Unknown seller "${sellerId}"`);
  if (values.json) io.out(`${JSON.stringify(seller)}\n`);
  else {
    const changed = [
      ...(rateLimit !== undefined ? [describeSellerRateLimit(seller.rate_limit)] : []),
      ...(endpointLimit !== undefined ? [describeEndpointLimit(seller.webhook_endpoint_limit)] : []),
      ...(keyLimit !== undefined ? [describeKeyLimit(seller.key_limit)] : []),
      ...(waitingLimit !== undefined ? [describeWaitingLimit(seller.waiting_delivery_limit)] : []),
      ...(apiVersion !== undefined ? [`API version ${String(seller.api_version)}`] : []),
    ];
    io.out(`Updated seller ${seller.id} ("${printable(seller.name)}"): ${changed.join('; ')}\n`);
  }
}
