import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { audited } from '../audit/audit-log.js';
import { createSeller } from '../db/sellers.js';
import { DEFAULT_PLAN, isPlanName, PLANS, resolveCustomerLimit } from '../plans.js';
import { CliError, type CliIo } from './io.js';
import { loginLinkCommand } from './login-link-command.js';
import { describeSellerRateLimit, sellerRateLimitFrom } from './seller-rate-limit.js';
import { apiVersionFrom, SELLERS_UPDATE_USAGE, sellersUpdateCommand, webhookEndpointLimitFrom } from './sellers-update-command.js';
import { withDatabase } from './with-database.js';
import { printable } from './printable.js';

export const SELLERS_USAGE =
  'sellers create --name NAME [--plan PLAN] [--customer-limit N] [--rate-limit N|default] [--webhook-endpoint-limit N|default] [--api-version YYYY-MM-DD] [--json] [--database URL]';
export { SELLERS_UPDATE_USAGE };
export const LOGIN_LINK_USAGE = 'sellers login-link --seller SELLER_ID [--base-url URL] [--json] [--database URL]';

export async function sellersCommand(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'login-link') return loginLinkCommand(rest, io);
  if (sub === 'update') return sellersUpdateCommand(rest, io);
  if (sub !== 'create') {
    const usage = [SELLERS_USAGE, SELLERS_UPDATE_USAGE, LOGIN_LINK_USAGE].join('\n  ');
    throw new CliError(`Unknown sellers command "${sub ?? ''}". Usage:\n  ${usage}`, 2);
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      'customer-limit': { type: 'string' },
      'rate-limit': { type: 'string' },
      'webhook-endpoint-limit': { type: 'string' },
      'api-version': { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const name = values.name?.trim();
  if (!name) throw new CliError(`--name is required. Usage: ${SELLERS_USAGE}`, 2);
  const plan = values.plan ?? DEFAULT_PLAN;
  if (!isPlanName(plan)) throw new CliError(`Unknown plan "${plan}"; plans: ${Object.keys(PLANS).join(', ')}`);
  let customerLimit: number | null = null;
  if (values['customer-limit'] !== undefined) {
    const text = values['customer-limit'];
    customerLimit = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(customerLimit) || customerLimit > 2_147_483_647) {
      throw new CliError(`--customer-limit must be a whole number from 0, got "${text}"`);
    }
  }
  const rateLimit = values['rate-limit'] === undefined ? null : sellerRateLimitFrom(values['rate-limit']);
  const endpointText = values['webhook-endpoint-limit'];
  const webhookEndpointLimit = endpointText === undefined ? null : webhookEndpointLimitFrom(endpointText);
  const versionText = values['api-version'];
  const apiVersion = versionText === undefined ? undefined : apiVersionFrom(versionText);
  const seller = await withDatabase(values.database, io, (handle) =>
    audited(
      handle,
      CLI_ACTOR,
      (trx) => createSeller(trx, { name, plan, customerLimit, rateLimit, webhookEndpointLimit, ...(apiVersion !== undefined && { apiVersion }) }),
      (created) => ({ sellerId: created.id, action: 'seller.created', targetId: created.id }),
    ),
  );
  const limit = resolveCustomerLimit(seller.plan, seller.customer_limit);
  if (values.json) {
    io.out(`${JSON.stringify({ ...seller, effective_customer_limit: limit })}\n`);
  } else {
    const rate = describeSellerRateLimit(seller.rate_limit);
    io.out(`Created seller ${seller.id} ("${printable(seller.name)}", plan ${seller.plan}, up to ${limit} customers, ${rate})\n`);
  }
}
