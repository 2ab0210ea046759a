import { parseArgs } from 'node:util';
import { createApiKey, deleteApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../db/api-keys.js';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { audited, writeAuditRow } from '../audit/audit-log.js';
import { ROLL_OVERLAPS, type RollOverlap } from '../dashboard/key-input.js';
import { rollSellerKey } from '../dashboard/seller-keys.js';
import { SCOPES, parseScopeList } from '@customers-api/core';
import { keySellerId } from '../db/api-keys.js';
import { canonicalUuid } from '../db/uuid.js';
import { findSeller } from '../db/sellers.js';
import { parseKeyExpiry } from '../key-expiry.js';
import { keyNameProblem } from '../key-name.js';
import { CliError, type CliIo } from './io.js';
import { printable } from './printable.js';
import { withDatabase } from './with-database.js';
import { rollDetails } from '../audit/audit-details.js';

export const KEYS_USAGE = [
  'keys create --seller SELLER_ID --name NAME [--mode live|test] [--scopes SCOPE,...] [--expires-at ISO-8601] [--json] [--database URL]',
  'keys list --seller SELLER_ID [--json] [--database URL]',
  'keys roll KEY_ID --overlap 1h|24h|7d [--json] [--database URL]',
  'keys revoke KEY_ID [--database URL]',
  'keys delete KEY_ID [--database URL]',
];

export async function keysCommand(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      seller: { type: 'string' },
      name: { type: 'string' },
      'expires-at': { type: 'string' },
      mode: { type: 'string' },
      scopes: { type: 'string' },
      overlap: { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  switch (sub) {
    case 'create':
      return createKey(values, io);
    case 'list':
      return listKeys(values, io);
    case 'roll':
      return rollKey(positionals, values, io);
    case 'revoke':
    case 'delete':
      return changeKey(sub, positionals, values, io);
    default:
      throw new CliError(`Unknown keys command "${sub ?? ''}". Usage:\n  ${KEYS_USAGE.join('\n  ')}`, 2);
  }
}

interface KeyFlags {
  seller?: string | undefined;
  name?: string | undefined;
  'expires-at'?: string | undefined;
  mode?: string | undefined;
  scopes?: string | undefined;
  overlap?: string | undefined;
  json?: boolean | undefined;
  database?: string | undefined;
}

/** A future instant from --expires-at, normalised to ISO 8601 UTC. */
export function parseExpiry(text: string, now: Date): string {
  const parsed = parseKeyExpiry(text, now);
  if (parsed.ok) return parsed.value;
  if (parsed.reason === 'format') {
    throw new CliError(`--expires-at must be an ISO 8601 date or date-time (e.g. 2027-01-31T00:00:00Z), got "${text}"`);
  }
  throw new CliError(`--expires-at must be in the future, got "${text}"`);
}

async function createKey(values: KeyFlags, io: CliIo): Promise<void> {
  if (!values.seller) throw new CliError(`--seller is required. Usage: ${KEYS_USAGE[0]}`, 2);
  const name = values.name?.trim();
  if (!name) throw new CliError(`--name is required. Usage: ${KEYS_USAGE[0]}`, 2);
  const problem = keyNameProblem(name);
  if (problem) throw new CliError(`--name ${problem}`);
  const expiresAt = values['expires-at'] === undefined ? null : parseExpiry(values['expires-at'], new Date());
  const mode = values.mode ?? 'live';
  if (mode !== 'live' && mode !== 'test') throw new CliError(`--mode must be live or test, got "${values.mode}"`);
  let scopes: string[] | null = null;
  if (values.scopes !== undefined) {
    const parsed = parseScopeList(values.scopes);
    if (!parsed.ok) throw new CliError(`--scopes: ${parsed.message}`);
    if (parsed.scopes.length === 0) throw new CliError(`--scopes must name at least one scope (${SCOPES.join(', ')}); without it the key is a secret key`);
    scopes = parsed.scopes;
  }
  const sellerArg = values.seller;
  const created = await withDatabase(values.database, io, async (handle) => {
    const seller = await findSeller(handle, sellerArg);
    if (!seller) throw new CliError(`Unknown seller "${sellerArg}"`);
    return audited(
      handle,
      CLI_ACTOR,
      (trx) => createApiKey(trx, { sellerId: seller.id, name, expiresAt, mode, scopes }),
      (key) => ({ sellerId: seller.id, action: 'api_key.created', targetId: key.id }),
    );
  });
  if (values.json) {
    io.out(`${JSON.stringify(created)}\n`);
    return;
  }
  io.out(
    [
      `Created ${created.mode} ${created.scopes ? `restricted API key (${created.scopes.join(', ')})` : 'secret API key'} ${created.id} ("${created.name}")${created.expires_at ? `, expires ${created.expires_at}` : ''}.`,
      'The key is shown only now; store it safely:',
      '',
      `  ${created.key}`,
      '',
    ].join('\n'),
  );
}

async function listKeys(values: KeyFlags, io: CliIo): Promise<void> {
  if (!values.seller) throw new CliError(`--seller is required. Usage: ${KEYS_USAGE[1]}`, 2);
  const sellerArg = values.seller;
  const keys = await withDatabase(values.database, io, async (handle) => {
    if (!(await findSeller(handle, sellerArg))) throw new CliError(`Unknown seller "${sellerArg}"`);
    return listApiKeys(handle, sellerArg);
  });
  if (values.json) {
    io.out(`${JSON.stringify(keys)}\n`);
    return;
  }
  io.out(formatKeyTable(keys));
}

/**
 * Rolls a key as the dashboard does (seller-keys.ts): a new key with the same name now, the old one expiring after
 * the overlap, in one audited transaction (`api_key.created` and `api_key.rolled`).
 */
async function rollKey(positionals: string[], values: KeyFlags, io: CliIo): Promise<void> {
  const usage = `Usage: ${KEYS_USAGE[2]}`;
  const [keyId, ...extra] = positionals;
  if (!keyId || extra.length > 0) throw new CliError(usage, 2);
  const names = Object.keys(ROLL_OVERLAPS);
  if (values.overlap === undefined) throw new CliError(`--overlap is required (${names.join(', ')}). ${usage}`, 2);
  if (!names.includes(values.overlap)) throw new CliError(`--overlap must be one of ${names.join(', ')}, got "${values.overlap}"`);
  const overlapMs = ROLL_OVERLAPS[values.overlap as RollOverlap];
  const now = new Date();
  const rolled = await withDatabase(values.database, io, (handle) =>
    audited(
      handle,
      CLI_ACTOR,
      async (trx) => {
        const sellerId = await keySellerId(trx, keyId);
        if (sellerId === undefined) return undefined;
        const result = await rollSellerKey(trx, sellerId, keyId, overlapMs, now);
        if (typeof result === 'object') {
          await writeAuditRow(trx.db, CLI_ACTOR, { sellerId, action: 'api_key.created', targetId: result.key.id, details: { rolled_from: result.previous.id } }, now);
        }
        return typeof result === 'object' ? { sellerId, ...result } : result;
      },
      (result) => (typeof result === 'object' ? { sellerId: result.sellerId, action: 'api_key.rolled', targetId: result.previous.id, details: rollDetails(result) } : undefined),
      now,
    ),
  );
  if (rolled === undefined) throw new CliError(`Unknown API key "${keyId}"`);
  if (rolled === 'inactive') throw new CliError(`API key "${keyId}" is revoked or expired; only an active key can be rolled`);
  const { key, previous } = rolled;
  if (values.json) {
    io.out(`${JSON.stringify({ key, previous })}\n`);
    return;
  }
  io.out(
    [
      `Rolled API key ${previous.id} ("${printable(previous.name)}"): it keeps working until ${previous.expires_at}.`,
      `New API key ${key.id}, shown only now; store it safely:`,
      '',
      `  ${key.key}`,
      '',
    ].join('\n'),
  );
}

async function changeKey(action: 'revoke' | 'delete', positionals: string[], values: KeyFlags, io: CliIo) {
  const [keyId, ...extra] = positionals;
  if (!keyId || extra.length > 0) throw new CliError(`Usage: keys ${action} KEY_ID [--database URL]`, 2);
  const done = await withDatabase(values.database, io, (handle) =>
    audited(
      handle,
      CLI_ACTOR,
      async (trx) => {
        const sellerId = await keySellerId(trx, keyId);
        const changed = action === 'revoke' ? await revokeApiKey(trx, keyId) : await deleteApiKey(trx, keyId);
        return changed ? sellerId : undefined;
      },
      (sellerId) =>
        sellerId === undefined
          ? undefined
          : { sellerId, action: action === 'revoke' ? 'api_key.revoked' : 'api_key.deleted', targetId: canonicalUuid(keyId) ?? null },
    ),
  );
  if (!done) throw new CliError(`Unknown API key "${keyId}"`);
  const text = action === 'revoke' ? 'Revoked' : 'Deleted';
  if (values.json) io.out(`${JSON.stringify({ id: keyId, [action === 'revoke' ? 'revoked' : 'deleted']: true })}\n`);
  else io.out(`${text} API key ${keyId}\n`);
}

function formatKeyTable(keys: ApiKeyInfo[]): string {
  if (keys.length === 0) return 'No API keys.\n';
  const header = ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED', 'MODE', 'SCOPES'];
  const rows = keys.map((k) => [
    k.id,
    printable(k.name), // a name stored before names were checked may still hold controls
    `${k.prefix}…`,
    k.created_at,
    k.last_used_at ?? 'never',
    k.expires_at ?? 'never',
    k.revoked_at ?? 'no',
    k.mode,
    k.scopes ? k.scopes.join(',') || 'none' : 'all',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
