import { parseArgs } from 'node:util';
import { databaseUrlFrom } from '../config.js';
import type { DatabaseHandle } from '../db/connect.js';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { audited } from '../audit/audit-log.js';
import { findSeller, type Seller } from '../db/sellers.js';
import { canonicalUuid } from '../db/uuid.js';
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  endpointOwner,
  listDeliveries,
  listEndpoints,
  rotateEndpointSecret,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../webhooks/endpoints.js';
import { loadSecretKey, secretKeySource } from '../webhooks/secret-key.js';
import { CliError, type CliIo } from './io.js';
import { chargeSellerFromCli } from './seller-budget.js';
import { apiVersionFrom } from './sellers-update-command.js';
import { printable } from './printable.js';
import { WEBHOOKS_LISTEN_USAGE } from './webhooks-listen-command.js';
import { withDatabase } from './with-database.js';

export const WEBHOOKS_USAGE = [
  'webhooks create --seller SELLER_ID --url URL [--events customer.created,customer.updated,customer.deleted] [--api-version YYYY-MM-DD] [--json]',
  'webhooks list --seller SELLER_ID [--json]',
  'webhooks delete ENDPOINT_ID [--json]',
  'webhooks deliveries ENDPOINT_ID [--limit N] [--json]',
  'webhooks rotate-secret ENDPOINT_ID [--json]',
  'webhooks enable ENDPOINT_ID [--json]',
];
const COMMON =
  '(each also takes --database URL; create and rotate-secret --secret-key-file PATH; create, delete, rotate-secret and ' +
  "enable --redis URL and --rate-limit N, to take from the seller's rate budget shared with the servers)";

interface WebhookFlags {
  seller?: string | undefined;
  url?: string | undefined;
  events?: string | undefined;
  'api-version'?: string | undefined;
  limit?: string | undefined;
  json?: boolean | undefined;
  database?: string | undefined;
  'secret-key-file'?: string | undefined;
  redis?: string | undefined;
  'rate-limit'?: string | undefined;
}

/** `webhooks create|list|delete|deliveries|rotate-secret|enable`: the operator's view of sellers' webhook endpoints. */
export async function webhooksCommand(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      seller: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      'api-version': { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
      'secret-key-file': { type: 'string' },
      redis: { type: 'string' },
      'rate-limit': { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  switch (sub) {
    case 'create':
      return create(values, io);
    case 'list':
      return list(values, io);
    case 'delete':
    case 'deliveries':
    case 'rotate-secret':
    case 'enable':
      return onEndpoint(sub, positionals, values, io);
    default:
      throw new CliError(
        `Unknown webhooks command "${sub ?? ''}". Usage:\n  ${[...WEBHOOKS_USAGE, WEBHOOKS_LISTEN_USAGE].join('\n  ')}\n${COMMON}`,
        2,
      );
  }
}

/** The seller named by --seller, or a usage error naming the option. */
async function sellerOf(handle: DatabaseHandle, values: WebhookFlags, usage: string): Promise<Seller> {
  if (!values.seller) throw new CliError(`--seller is required. Usage: ${usage}`, 2);
  const seller = await findSeller(handle, values.seller);
  if (!seller) throw new CliError(`--seller: unknown seller "${values.seller}"`);
  return seller;
}

function secretBox(values: WebhookFlags, io: CliIo) {
  const source = secretKeySource(values['secret-key-file'], io.env);
  return loadSecretKey({ ...source, databaseUrl: databaseUrlFrom(values.database, io.env) }).box;
}

async function create(values: WebhookFlags, io: CliIo): Promise<void> {
  const usage = WEBHOOKS_USAGE[0]!;
  if (!values.url) throw new CliError(`--url is required. Usage: ${usage}`, 2);
  const url = values.url;
  const events = values.events?.split(',').map((type) => type.trim()).filter(Boolean);
  // Its events are rendered in this version; the seller's pinned one when omitted.
  const versionText = values['api-version'];
  const apiVersion = versionText === undefined ? undefined : apiVersionFrom(versionText);
  const box = secretBox(values, io);
  const result = await withDatabase(values.database, io, async (handle) => {
    const seller = await sellerOf(handle, values, usage);
    await chargeSellerFromCli(seller, values, io);
    // The operator is trusted: any http(s) URL, loopback and private networks included.
    return audited(
      handle,
      CLI_ACTOR,
      (trx) => createEndpoint(trx, box, seller.id, { url, events, apiVersion }, { allowPrivate: true }),
      (created) => (created.kind === 'created' ? { sellerId: seller.id, action: 'webhook_endpoint.created', targetId: created.endpoint.id } : undefined),
    );
  });
  if (result.kind === 'invalid') throw new CliError(`--${result.message}`);
  if (result.kind === 'limit_reached') throw new CliError(`--seller: ${result.message}`);
  if (result.kind === 'duplicate_url') throw new CliError(`--${result.message}`);
  // The URL as stored (normalized), not as typed.
  const { id, secret, url: stored, events: types, api_version } = result.endpoint;
  if (values.json) {
    io.out(`${JSON.stringify({ id, secret, url: stored, events: types, api_version })}\n`);
    return;
  }
  io.out(
    [
      `Created webhook endpoint ${id} for ${types.join(', ')} at ${printable(stored)}, in API version ${api_version}.`,
      'Its signing secret is shown only now; store it safely:',
      '',
      `  ${secret}`,
      '',
    ].join('\n'),
  );
}

async function list(values: WebhookFlags, io: CliIo): Promise<void> {
  const endpoints = await withDatabase(values.database, io, async (handle) =>
    listEndpoints(handle, (await sellerOf(handle, values, WEBHOOKS_USAGE[1]!)).id),
  );
  if (values.json) {
    io.out(`${JSON.stringify(endpoints)}\n`);
    return;
  }
  io.out(formatEndpoints(endpoints));
}

async function onEndpoint(
  action: 'delete' | 'deliveries' | 'rotate-secret' | 'enable',
  positionals: string[],
  values: WebhookFlags,
  io: CliIo,
): Promise<void> {
  const [endpointId, ...extra] = positionals;
  const usage = WEBHOOKS_USAGE.find((line) => line.startsWith(`webhooks ${action} `))!;
  if (!endpointId || extra.length > 0) throw new CliError(`Usage: ${usage}`, 2);
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError(`--limit must be a whole number from 1 to 1000, got "${values.limit}"`);
  const box = action === 'rotate-secret' ? secretBox(values, io) : undefined;
  const answer = await withDatabase(values.database, io, async (handle) => {
    const sellerId = await endpointOwner(handle, endpointId);
    if (!sellerId) throw new CliError(`Unknown webhook endpoint "${endpointId}"`);
    // Changes take from the seller's budget, as in the dashboard; reading deliveries does not.
    if (action === 'deliveries') return listDeliveries(handle, sellerId, endpointId, { limit });
    await chargeSellerFromCli((await findSeller(handle, sellerId))!, values, io);
    const targetId = canonicalUuid(endpointId) ?? null;
    if (action === 'delete') {
      return audited(
        handle,
        CLI_ACTOR,
        (trx) => deleteEndpoint(trx, sellerId, endpointId),
        (deleted) => (deleted ? { sellerId, action: 'webhook_endpoint.deleted', targetId } : undefined),
      );
    }
    if (action === 'enable') {
      return audited(
        handle,
        CLI_ACTOR,
        (trx) => enableEndpoint(trx, sellerId, endpointId),
        (enabled) => enabled && { sellerId, action: 'webhook_endpoint.enabled', targetId: enabled.id },
      );
    }
    return audited(
      handle,
      CLI_ACTOR,
      (trx) => rotateEndpointSecret(trx, box!, sellerId, endpointId),
      (rotated) => rotated && { sellerId, action: 'webhook_endpoint.secret_rotated', targetId: rotated.id },
    );
  });
  if (action === 'delete') {
    io.out(values.json ? `${JSON.stringify({ id: endpointId, deleted: true })}\n` : `Deleted webhook endpoint ${endpointId}\n`);
  } else if (action === 'enable') {
    const endpoint = answer as WebhookEndpoint;
    io.out(values.json ? `${JSON.stringify(endpoint)}\n` : `Enabled webhook endpoint ${endpoint.id}: new changes are sent to it again\n`);
  } else if (action === 'deliveries') {
    const deliveries = answer as WebhookDelivery[];
    io.out(values.json ? `${JSON.stringify(deliveries)}\n` : formatDeliveries(deliveries));
  } else {
    const rotated = answer as { id: string; secret: string; previous_secret_expires_at: string };
    io.out(
      values.json
        ? `${JSON.stringify(rotated)}\n`
        : [
            `New signing secret for webhook endpoint ${rotated.id}, shown only now:`,
            '',
            `  ${rotated.secret}`,
            '',
            `The previous secret keeps signing too until ${rotated.previous_secret_expires_at}.`,
            '',
          ].join('\n'),
    );
  }
}

/** Aligned columns; every cell made printable (URLs and errors are stored text, shown in the operator's terminal). */
function table(header: string[], textRows: string[][]): string {
  const rows = textRows.map((row) => row.map(printable));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

function formatEndpoints(endpoints: WebhookEndpoint[]): string {
  if (endpoints.length === 0) return 'No webhook endpoints.\n';
  return table(
    ['ID', 'URL', 'EVENTS', 'API VERSION', 'CREATED', 'STATE'],
    endpoints.map((e) => [e.id, e.url, e.events.join(','), e.api_version, e.created_at, endpointState(e)]),
  );
}

/** Disabled (with how to enable it) before failing before ok. */
function endpointState(endpoint: WebhookEndpoint): string {
  if (endpoint.disabled) return `disabled since ${endpoint.disabled_at} (webhooks enable ${endpoint.id})`;
  return endpoint.failing ? `failing since ${endpoint.failing_since}` : 'ok';
}

function formatDeliveries(deliveries: WebhookDelivery[]): string {
  if (deliveries.length === 0) return 'No deliveries.\n';
  return table(
    ['EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST ANSWER', 'LAST ATTEMPT', 'NEXT ATTEMPT'],
    deliveries.map((d) => [
      d.event_id,
      d.event_type,
      d.status,
      String(d.attempts),
      d.last_status_code !== null ? String(d.last_status_code) : (d.last_error ?? '-'),
      d.last_attempt_at ?? '-',
      d.next_attempt_at ?? '-',
    ]),
  );
}
