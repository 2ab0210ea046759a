import type { CustomersClient, EventListParams, EventType } from '@customers-api/sdk';
import { type CliIO, UsageError } from './io.js';

export interface EventsListOptions {
  type: EventType | undefined;
  customer: string | undefined;
  undeliveredTo: string | undefined;
  limit: number;
  json: boolean;
}

/** `customers events list`: the newest events (one page), one line each, or their JSON with `--json`. */
export async function listEvents(client: CustomersClient, io: CliIO, options: EventsListOptions): Promise<number> {
  const params: EventListParams = {
    limit: options.limit,
    ...(options.type && { type: options.type }),
    ...(options.customer && { customer_id: options.customer }),
    ...(options.undeliveredTo && { undelivered_to: options.undeliveredTo }),
  };
  const page = await client.events.list(params);
  if (options.json) {
    io.out(JSON.stringify(page.data, null, 2));
    return 0;
  }
  for (const event of page.data) {
    const customer = event.data.customer.id;
    io.out(`${event.id}  ${event.type.padEnd(16)}  ${event.created_at}  customer ${customer}`);
  }
  if (page.data.length === 0) io.out('No events.');
  return 0;
}

/**
 * `customers events resend EVENT --endpoint ENDPOINT`: the API's replay of the millisecond the event was created
 * in (`since` its `created_at`, `until` 1 ms later), so the endpoint gets it again through the delivery queue. An
 * event of another seller, or older than the retention, is a 404 from the API.
 */
export async function resendEvent(client: CustomersClient, io: CliIO, id: string | undefined, endpoint: string | undefined): Promise<number> {
  if (!id) throw new UsageError('events resend: give the event id (customers events resend EVENT_ID --endpoint ENDPOINT_ID)');
  if (!endpoint) throw new UsageError('events resend: --endpoint ENDPOINT_ID is required');
  const event = await client.events.get(id);
  const since = new Date(event.created_at);
  const until = new Date(since.getTime() + 1);
  const result = await client.webhookEndpoints.replay(endpoint, { since: since.toISOString(), until: until.toISOString() });
  io.out(`Queued ${result.queued} event${result.queued === 1 ? '' : 's'} for ${endpoint} (${id} and any other created in the same millisecond)`);
  if (result.queued === 0) io.out('An event still waiting for delivery to the endpoint is on its way already, and is not queued twice.');
  return 0;
}
