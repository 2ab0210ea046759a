import { setTimeout as sleep } from 'node:timers/promises';
import { newCustomer } from './test-server.js';

/** One request of the load: its answer, or the network error that stood for one. */
export interface LoadOutcome {
  server: number;
  kind: 'create' | 'list';
  /** performance.now() when the request was sent and when its answer (or error) came. */
  sentAt: number;
  endedAt: number;
  status?: number;
  retryAfter?: string | null;
  body?: unknown;
  /** The created customer's email, on a 201. */
  email?: string;
  /** e.g. ECONNREFUSED, ECONNRESET, TimeoutError. */
  error?: string;
}

export interface BoundedLoad {
  readonly outcomes: readonly LoadOutcome[];
  /** Stops sending; resolves once every client has had its last answer. */
  stop(): Promise<void>;
}

/**
 * `clients` sequential clients, each sending a create then a list, in turn to each server, with `pauseMs` between
 * requests (so the load stays bounded however fast errors come back), until stop(). Every answer is recorded.
 *
 * @example
 * const load = startBoundedLoad([a.url, b.url], key); ...; await load.stop();
 */
export function startBoundedLoad(urls: readonly string[], key: string, { clients = 4, pauseMs = 25 } = {}): BoundedLoad {
  const outcomes: LoadOutcome[] = [];
  let stopped = false;
  const client = async (index: number) => {
    for (let turn = index; !stopped; turn++) {
      const server = turn % urls.length;
      // Creates and lists alternate every two turns, so each server gets both.
      const kind = Math.floor(turn / 2) % 2 === 0 ? 'create' : 'list';
      outcomes.push(await send(urls[server]!, server, kind, key));
      await sleep(pauseMs);
    }
  };
  const running = Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  return {
    outcomes,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

async function send(url: string, server: number, kind: 'create' | 'list', key: string): Promise<LoadOutcome> {
  const sentAt = performance.now();
  const customer = newCustomer();
  try {
    const response = await fetch(kind === 'create' ? `${url}/api/customers` : `${url}/api/customers?limit=5`, {
      method: kind === 'create' ? 'POST' : 'GET',
      headers: { 'x-api-key': key, ...(kind === 'create' ? { 'content-type': 'application/json' } : {}) },
      ...(kind === 'create' ? { body: JSON.stringify(customer) } : {}),
      // Far above any answer the server should give; a hang is recorded, not waited for forever.
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: the test says what it expected.
    }
    return {
      server,
      kind,
      sentAt,
      endedAt: performance.now(),
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body,
      ...(response.status === 201 ? { email: customer.email as string } : {}),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { server, kind, sentAt, endedAt: performance.now(), error: cause?.code ?? (error as Error).name };
  }
}
