import { parseArgs } from 'node:util';
import { createApiKey, deleteApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../db/api-keys.js';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { audited } from '../audit/audit-log.js';
import { keySellerId } from '../db/api-keys.js';
import { canonicalUuid } from '../db/uuid.js';
import { findSeller } from '../db/sellers.js';
import { parseKeyExpiry } from '../key-expiry.js';
import { keyNameProblem } from '../key-name.js';
import { CliError, type CliIo } from './io.js';
import { printable } from './printable.js';
import { withDatabase } from './with-database.js';

export const KEYS_USAGE = [
  'keys create --seller SELLER_ID --name NAME [--expires-at ISO-8601] [--json] [--database URL]',
  'keys list --seller SELLER_ID [--json] [--database URL]',
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
  const sellerArg = values.seller;
  const created = await withDatabase(values.database, io, async (handle) => {
    const seller = await findSeller(handle, sellerArg);
    if (!seller) throw new CliError(`Unknown seller "${sellerArg}"`);
    return audited(
      handle,
      CLI_ACTOR,
      (trx) => createApiKey(trx, { sellerId: seller.id, name, expiresAt }),
      (key) => ({ sellerId: seller.id, action: 'api_key.created', targetId: key.id }),
    );
  });
  if (values.json) {
    io.out(`${JSON.stringify(created)}\n`);
    return;
  }
  io.out(
    [
      `Created API key ${created.id} ("${created.name}")${created.expires_at ? `, expires ${created.expires_at}` : ''}.`,
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
  const header = ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED'];
  const rows = keys.map((k) => [
    k.id,
    printable(k.name), // a name stored before names were checked may still hold controls
    `${k.prefix}…`,
    k.created_at,
    k.last_used_at ?? 'never',
    k.expires_at ?? 'never',
    k.revoked_at ?? 'no',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
