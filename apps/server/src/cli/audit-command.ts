import { parseArgs } from 'node:util';
import { AUDIT_ACTIONS, type AuditAction } from '../audit/audit-actions.js';
import { listAuditRows, type AuditRecord } from '../audit/audit-log.js';
import { canonicalUuid } from '../db/uuid.js';
import { CliError, type CliIo } from './io.js';
import { withDatabase } from './with-database.js';

export const AUDIT_USAGE = 'audit list [--seller SELLER_ID] [--action ACTION] [--target ID] [--request-id ID] [--since ISO-8601] [--limit N] [--json] [--database URL]';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** `audit list`: the audit log, newest first (every seller's unless --seller names one). */
export async function auditCommand(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'list') throw new CliError(`Unknown audit command "${sub ?? ''}". Usage:\n  ${AUDIT_USAGE}`, 2);
  const { values } = parseArgs({
    args: rest,
    options: {
      seller: { type: 'string' },
      action: { type: 'string' },
      target: { type: 'string' },
      'request-id': { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!/^\d+$/.test(values.limit ?? '100') || limit < 1 || limit > 10_000) {
    throw new CliError(`--limit must be a whole number from 1 to 10000, got "${values.limit}"`);
  }
  let since: string | undefined;
  if (values.since !== undefined) {
    const at = Date.parse(values.since);
    if (!ISO_INSTANT.test(values.since) || Number.isNaN(at)) {
      throw new CliError(`--since must be an ISO 8601 date or date-time (e.g. 2026-11-01T00:00:00Z), got "${values.since}"`);
    }
    since = new Date(at).toISOString();
  }
  let sellerId: string | undefined;
  if (values.seller !== undefined) {
    sellerId = canonicalUuid(values.seller);
    if (!sellerId) throw new CliError(`--seller must be a seller id (a UUID), got "${values.seller}"`);
  }
  const action = values.action;
  if (action !== undefined && !isAuditAction(action)) {
    throw new CliError(`--action must be one of: ${AUDIT_ACTIONS.join(', ')}; got "${action}"`);
  }
  if (values.target !== undefined && values.target.trim() === '') throw new CliError('--target must be an object id, got ""');
  const requestId = values['request-id'];
  if (requestId !== undefined && requestId.trim() === '') throw new CliError('--request-id must be a request id, got ""');
  const rows = await withDatabase(values.database, io, (handle) =>
    listAuditRows(handle, {
      limit,
      ...(sellerId ? { sellerId } : {}),
      ...(since ? { since } : {}),
      ...(action ? { action } : {}),
      ...(values.target !== undefined ? { targetId: canonicalUuid(values.target) ?? values.target } : {}),
      // The server's id or the client's X-Request-Id: either finds the request's rows.
      ...(requestId !== undefined ? { requestId } : {}),
    }),
  );
  io.out(values.json ? `${JSON.stringify(rows)}\n` : formatRows(rows));
}

function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

function actorOf(row: AuditRecord): string {
  // A key's label is its display prefix (the start of the key); the CLI's is user@host.
  const label = row.actor_label && (row.actor_type === 'api_key' ? `${row.actor_label}…` : row.actor_label);
  const detail = [row.actor_id, label].filter(Boolean).join(' ');
  return detail ? `${row.actor_type} ${detail}` : row.actor_type;
}

/** The server's request id, and the client's own beside it when it sent one. */
function requestOf(row: AuditRecord): string {
  if (row.request_id === null) return '-';
  return row.client_request_id ? `${row.request_id} (client ${row.client_request_id})` : row.request_id;
}

function formatRows(rows: AuditRecord[]): string {
  if (rows.length === 0) return 'No audit rows.\n';
  const header = ['TIME', 'SELLER', 'ACTOR', 'ACTION', 'TARGET', 'REQUEST', 'ADDRESS'];
  const cells = rows.map((r) => [r.occurred_at, r.seller_id, actorOf(r), r.action, r.target_id ?? '-', requestOf(r), r.client_address ?? '-']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return `${[line(header), ...cells.map(line)].join('\n')}\n`;
}
