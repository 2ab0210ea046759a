import { parseArgs } from 'node:util';
import { createLoginLink, LOGIN_LINK_TTL_MS, loginLinkUrl } from '../dashboard/login-links.js';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { audited } from '../audit/audit-log.js';
import { findSeller } from '../db/sellers.js';
import { CliError, type CliIo } from './io.js';
import { withDatabase } from './with-database.js';

const USAGE = 'sellers login-link --seller SELLER_ID [--base-url URL] [--json] [--database URL]';

/** Prints a one-time dashboard sign-in URL for a seller (valid 15 minutes; only its hash is stored). */
export async function loginLinkCommand(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seller: { type: 'string' },
      'base-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.seller) throw new CliError(`--seller is required. Usage: ${USAGE}`, 2);
  const baseUrl = values['base-url'] ?? defaultBaseUrl(io.env);
  if (!/^https?:\/\/[^/?#]+\/?$/.test(baseUrl)) {
    throw new CliError(`--base-url must be the server's scheme, host and port, e.g. https://api.example.com, got "${baseUrl}"`);
  }
  const sellerArg = values.seller;
  const link = await withDatabase(values.database, io, async (handle) => {
    const seller = await findSeller(handle, sellerArg);
    if (!seller) throw new CliError(`Unknown seller "${sellerArg}"`);
    // The row says a link was issued, never the link.
    return audited(
      handle,
      CLI_ACTOR,
      (trx) => createLoginLink(trx, seller.id),
      () => ({ sellerId: seller.id, action: 'sign_in_link.issued', targetId: null }),
    );
  });
  const url = loginLinkUrl(baseUrl, link.token);
  if (values.json) {
    io.out(`${JSON.stringify({ url, expires_at: link.expiresAt })}\n`);
    return;
  }
  const minutes = LOGIN_LINK_TTL_MS / 60_000;
  io.out(`Dashboard sign-in link (works once, for ${minutes} minutes, until ${link.expiresAt}):\n\n  ${url}\n\n`);
}

/** Where `serve` listens by default with the same environment (PORT, HOST). */
function defaultBaseUrl(env: NodeJS.ProcessEnv): string {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || '3000'}`;
}
