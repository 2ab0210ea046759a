import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { audited } from '../audit/audit-log.js';
import { setSellerRateLimit } from '../db/sellers.js';
import { CliError, type CliIo } from './io.js';
import { describeSellerRateLimit, sellerRateLimitFrom } from './seller-rate-limit.js';
import { withDatabase } from './with-database.js';

export const SELLERS_UPDATE_USAGE = 'sellers update SELLER_ID --rate-limit N|default [--json] [--database URL]';

/** Changes a seller's own rate limit; running servers apply it from the seller's next request. */
export async function sellersUpdateCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'rate-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [sellerId, ...extra] = positionals;
  if (!sellerId || extra.length > 0 || values['rate-limit'] === undefined) {
    throw new CliError(`Usage: ${SELLERS_UPDATE_USAGE}`, 2);
  }
  const rateLimit = sellerRateLimitFrom(values['rate-limit']);
  const seller = await withDatabase(values.database, io, (handle) =>
    audited(
      handle,
      CLI_ACTOR,
      (trx) => setSellerRateLimit(trx, sellerId, rateLimit),
      (updated) => updated && { sellerId: updated.id, action: 'seller.updated', targetId: updated.id },
    ),
  );
  if (!seller) throw new CliError(`Unknown seller "${sellerId}"`);
  if (values.json) io.out(`${JSON.stringify(seller)}\n`);
  else io.out(`Updated seller ${seller.id} ("${seller.name}"): ${describeSellerRateLimit(seller.rate_limit)}\n`);
}
