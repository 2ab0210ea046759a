import { parseArgs } from 'node:util';
import { databaseUrlFrom } from '../config.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations.js';
import { findSeller } from '../db/sellers.js';
import { createEndpoint, deleteEndpoint, listDeliveries, type WebhookDelivery } from '../webhooks/endpoints.js';
import { assertSecretKeyMatches } from '../webhooks/register-webhooks.js';
import { loadSecretKey, secretKeySource } from '../webhooks/secret-key.js';
import { CliError, type CliIo } from './io.js';

export const WEBHOOKS_LISTEN_USAGE =
  'webhooks listen --seller SELLER_ID --forward-to URL [--events TYPE,...] [--json] [--database URL] [--secret-key-file FILE]';

/** How often the deliveries to the temporary endpoint are read, to print each attempt. */
const FOLLOW_INTERVAL_MS = 1000;

/**
 * `webhooks listen` (like `stripe listen`): registers a temporary endpoint for the seller pointing at a local
 * URL, prints its secret (for the local receiver to verify with), prints each delivery attempt to it, and removes
 * it when stopped (Ctrl-C / SIGTERM, or `stop` when given). The running server delivers, as to any endpoint: start it with
 * `--allow-private-webhooks` for a loopback or private URL.
 */
export async function webhooksListenCommand(args: string[], io: CliIo, stop?: AbortSignal): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seller: { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      json: { type: 'boolean', default: false },
      database: { type: 'string' },
      'secret-key-file': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.seller) throw new CliError(`--seller is required. Usage: ${WEBHOOKS_LISTEN_USAGE}`, 2);
  if (!values['forward-to']) throw new CliError(`--forward-to is required. Usage: ${WEBHOOKS_LISTEN_USAGE}`, 2);
  // Listening for Ctrl-C before anything is registered: a signal from now on ends in the cleanup below.
  const termination = stop ? undefined : terminationSignal();
  try {
    await listenUntil({ ...values, seller: values.seller, 'forward-to': values['forward-to'] }, io, stop ?? termination!.signal);
  } finally {
    termination?.dispose();
  }
}

interface ListenFlags {
  seller: string;
  'forward-to': string;
  events?: string | undefined;
  json?: boolean | undefined;
  database?: string | undefined;
  'secret-key-file'?: string | undefined;
}

async function listenUntil(values: ListenFlags, io: CliIo, stop: AbortSignal): Promise<void> {
  const databaseUrl = databaseUrlFrom(values.database, io.env);
  const { box } = loadSecretKey({ ...secretKeySource(values['secret-key-file'], io.env), databaseUrl });
  const handle = connectDatabase(databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(handle);
    // The server must open this endpoint's secret: refuse a key other than the one its secrets are sealed with.
    await assertSecretKeyMatches(handle, box);
    const seller = await findSeller(handle, values.seller);
    if (!seller) throw new CliError(`Unknown seller "${values.seller}"`);
    const events = values.events?.split(',').map((type) => type.trim());
    // The operator may register any http(s) URL, loopback included (that is the point here).
    const result = await createEndpoint(handle, box, seller.id, { url: values['forward-to'], events }, { allowPrivate: true });
    if (result.kind === 'invalid') {
      throw new CliError(`${result.property === 'url' ? '--forward-to' : '--events'}: ${result.message}`);
    }
    if (result.kind === 'limit_reached') throw new CliError(`--seller: ${result.message}`);
    if (result.kind === 'duplicate_url') throw new CliError(`--forward-to: ${result.message}`);
    const { endpoint } = result;
    try {
      if (values.json) {
        const { id, secret, url, events: types } = endpoint;
        io.out(`${JSON.stringify({ id, secret, url, events: types })}\n`);
      } else {
        io.out(
          [
            `Forwarding ${endpoint.events.join(', ')} of seller ${seller.id} to ${endpoint.url}`,
            `(temporary endpoint ${endpoint.id}). Verify the requests with this signing secret:`,
            '',
            `  ${endpoint.secret}`,
            '',
            'A loopback or private URL needs a server started with --allow-private-webhooks. Ctrl-C removes the endpoint.',
            '',
          ].join('\n'),
        );
      }
      await followDeliveries(handle, seller.id, endpoint.id, stop, (delivery) =>
        io.out(values.json ? `${JSON.stringify(delivery)}\n` : `${attemptLine(delivery)}\n`),
      );
    } finally {
      // Also when following failed: a temporary endpoint must not outlive the command.
      await deleteEndpoint(handle, seller.id, endpoint.id);
      io.err(`Removed the temporary endpoint ${endpoint.id}.\n`);
    }
  } finally {
    await handle.close();
  }
}

/** Calls `report` once per attempt to the endpoint (a new `last_attempt_at`), until `stop` aborts. */
async function followDeliveries(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  stop: AbortSignal,
  report: (delivery: WebhookDelivery) => void,
): Promise<void> {
  const seen = new Map<string, string | null>();
  while (!stop.aborted) {
    const deliveries = (await listDeliveries(handle, sellerId, endpointId)) ?? [];
    for (const delivery of [...deliveries].reverse()) {
      if (delivery.last_attempt_at === null || seen.get(delivery.event_id) === delivery.last_attempt_at) continue;
      seen.set(delivery.event_id, delivery.last_attempt_at);
      report(delivery);
    }
    await new Promise<void>((wake) => {
      const timer = setTimeout(done, FOLLOW_INTERVAL_MS);
      function done() {
        clearTimeout(timer);
        stop.removeEventListener('abort', done);
        wake();
      }
      stop.addEventListener('abort', done, { once: true });
    });
  }
}

/** One attempt as a line: when, what, the answer, and what happens next. */
function attemptLine(delivery: WebhookDelivery): string {
  const answer = delivery.last_status_code !== null ? String(delivery.last_status_code) : `no answer (${delivery.last_error ?? 'unknown'})`;
  const next = delivery.status === 'retrying' ? `, retry at ${delivery.next_attempt_at}` : '';
  return `${delivery.last_attempt_at}  ${delivery.event_type}  ${delivery.event_id}  -> ${answer}  ${delivery.status}${next}`;
}

/** Aborts on SIGINT (Ctrl-C) or SIGTERM, which no longer end the process by themselves until `dispose()`. */
function terminationSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
