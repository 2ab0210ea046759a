import type { CustomersClient, EventType } from '@customers-api/sdk';
import { EventPoller } from './event-poller.js';
import { forwardEvent } from './forward.js';
import type { CliIO } from './io.js';
import { sessionSecret } from './session-secret.js';

/**
 * The default poll interval: 2 s keeps a trigger-to-forward round trip short for development while one quiet
 * session costs 30 list requests a minute, far under the API's per-key rate limit.
 */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

export interface ListenOptions {
  forwardTo: string;
  events: EventType[] | undefined;
  intervalMs: number;
  failOnError: boolean;
  /** Stops the session (Ctrl-C in the bin); listen then resolves with 0. */
  signal: AbortSignal;
}

/**
 * `customers listen`: prints the session's signing secret, then polls the events list and forwards each new event,
 * oldest first, printing one line per event with the receiver's status. Resolves with the exit code.
 */
export async function listen(client: CustomersClient, io: CliIO, options: ListenOptions): Promise<number> {
  const secret = sessionSecret();
  const types = options.events;
  const poller = new EventPoller((params) => client.events.list(params), types?.length === 1 ? { type: types[0]! } : {});
  await poller.start();
  await warnWithoutEndpoint(client, io, types);
  io.out(`Ready! Forwarding events to ${options.forwardTo}. Your webhook signing secret is ${secret} (Ctrl-C to quit)`);
  while (!options.signal.aborted) {
    for (const event of await poller.poll()) {
      if (types && !types.includes(event.type)) continue;
      const result = await forwardEvent(event, options.forwardTo, secret);
      const answer = 'status' in result ? `[${result.status}]` : `[failed: ${result.error}]`;
      io.out(`${event.created_at}  --> ${event.type} [${event.id}]  <-- POST ${options.forwardTo} ${answer}`);
      if (!result.ok && options.failOnError) {
        io.err(`customers listen: forwarding ${event.id} failed (${'status' in result ? `status ${result.status}` : result.error}); stopping (--fail-on-error)`);
        return 1;
      }
    }
    await sleep(options.intervalMs, options.signal);
  }
  return 0;
}

/** Events are recorded only for types some enabled endpoint subscribes to: say so rather than wait silently. */
async function warnWithoutEndpoint(client: CustomersClient, io: CliIO, types: EventType[] | undefined): Promise<void> {
  const covered = new Set<string>();
  for await (const endpoint of client.webhookEndpoints.list({ limit: 100 })) {
    if (endpoint.disabled) continue;
    for (const type of endpoint.events) covered.add(type);
  }
  const wanted = types ?? ['customer.created', 'customer.updated', 'customer.deleted'];
  const missing = wanted.filter((type) => !covered.has(type));
  if (missing.length > 0) {
    io.err(`Note: no enabled webhook endpoint of this account subscribes to ${missing.join(', ')}; the API records those events only while one does (register one with client.webhookEndpoints.create).`);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
