import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BODY_LIMIT_BYTES,
  createMockApi,
  errors,
  isApiError,
  missingHostRefusal,
  operationFor,
  refusedRequestAnswer,
  apiVersionHeaders,
  resolveRequestId,
  SeedError,
  splitRequestTarget,
  type MockApi,
  type MockRequest,
  type MockApiOptions,
  type MockAnswer,
} from '@customers-api/core';
import { answerClientError } from './client-error.js';
import { checkControlAccess } from './control-access.js';
import { CONTROL_PREFIX, controlAnswer } from './control-api.js';
import { corsHeaders, isPreflight, preflightHeaders, type CorsOrigins } from './cors.js';
import { errorAnswer } from './error-answer.js';
import { parsePrefer, preferredAnswer } from './prefer.js';
import { ClientGoneError, readBody } from './read-body.js';
import type { Seed } from './seed-file.js';
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
import { loadSpecExamples, type SpecExamples } from './spec-examples.js';
import { writeAnswer } from './write-answer.js';

export interface MockServerOptions {
  /** Sellers, keys and customers from a seed file ({@link readSeedFile}); without one, any well-formed key is one default seller. */
  seed?: Seed;
  /** Origins allowed to call from a browser; default any (`'*'`). */
  corsOrigins?: CorsOrigins;
  /** openapi.yaml's examples for `Prefer: example=`; read from the package's copy when omitted. */
  examples?: SpecExamples;
  /** Called with any fault that is not an API error (answered 500); defaults to `console.error`. */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
  /** Simulates the server's rate limit: requests per second per seller (0 or omitted: none), or a core `RateLimiter`. */
  rateLimit?: MockApiOptions['rateLimit'];
  /** The versions answered and the changes between them (tests: core's fixture version); openapi.yaml's when omitted. */
  versioning?: MockApiOptions['versioning'];
  /**
   * How webhook deliveries are timed: `schedule` starts each retry's timer (default `setTimeout`, on core's
   * schedule), `random` picks the jitter, `timeoutMs` is the receiver's time to answer (default 10 s). The
   * endpoints come from the seed's `webhooks` and from `mock.webhooks.add()`.
   */
  webhooks?: Omit<WebhookDispatcherOptions, 'endpoints'>;
  /** How many requests the journal keeps (`GET /__mock/requests`); default 1,000. */
  journalSize?: number;
  /**
   * Without it, the control API answers only requests whose `Host` is a loopback name (127.0.0.1, localhost,
   * [::1]); with it, only requests with `Authorization: Bearer <controlToken>`, whatever their `Host`.
   */
  controlToken?: string;
}

export interface MockServer {
  /** The `node:http` server; call {@link MockServer.listen} rather than its own listen. */
  server: Server;
  /** The mock engine behind it (sellers, store, forced responses, change events), shared with MSW through core. */
  api: MockApi;
  /** Webhook endpoints and deliveries (what the control API's `/__mock/webhooks` and `/__mock/deliveries` show). */
  webhooks: WebhookDispatcher;
  /** Starts listening and resolves with the base URL, e.g. `http://127.0.0.1:4010`. */
  listen(port: number, host?: string): Promise<string>;
  /**
   * Stops delivering webhooks, stops accepting connections, ends idle keep-alive ones and resolves once closed;
   * resolves at once when the mock never listened.
   */
  close(): Promise<void>;
}

/** Every request header for the journal, repeated ones joined as Node joins them. */
function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

const header = (request: IncomingMessage) => (name: string) => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * A stateful HTTP mock of the API for any language: core's rules and in-memory store (the very engine of the
 * MSW handlers) behind `node:http`, plus CORS on `/api`, Prism's `Prefer: code=` / `example=`, the control API
 * under `/__mock` (loopback `Host` only, or a `controlToken`), a request journal, one clock, and signed webhook deliveries of every change to the seed's `webhooks` and the endpoints added
 * since. Resolves once the seed is applied; rejects with a `SeedError` for a seed the API refuses.
 *
 * @example
 * const mock = await createMockServer({ seed: readSeedFile('seed.json') });
 * const url = await mock.listen(4010); // curl -H "X-API-Key: sk_live_..." $url/api/customers/...
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { seed } = options;
  const onUnexpectedError = options.onUnexpectedError ?? ((error, requestId) => console.error(`[customers-api-mock] ${requestId}`, error));
  const api = createMockApi({
    ...(seed?.sellers && { sellers: seed.sellers }),
    ...(seed && { seed: seed.customers }),
    ...(options.rateLimit !== undefined && { rateLimit: options.rateLimit }),
    ...(seed?.clockNow !== undefined && { frozenAt: seed.clockNow }),
    ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
    ...(options.controlToken !== undefined && { journalSecrets: [options.controlToken] }),
    ...(options.versioning && { versioning: options.versioning }),
    onUnexpectedError,
  });
  await api.ready.catch((error: unknown) => {
    // One seed entry per seller: name it as the file does.
    throw error instanceof SeedError ? new SeedError(error.message.replace(/^seed\[(\d+)\]/, 'seed.sellers[$1]')) : error;
  });
  for (const { sellerId, key } of seed?.moreKeys ?? []) await api.addKey(sellerId, key);
  // After the seed: seeding emits no events, and a seed the API refuses leaves nothing running.
  // Retries wait on the mock's clock and signatures carry its time, so POST /__mock/clock moves them too.
  const webhooks = createWebhookDispatcher(api, {
    schedule: api.clock.schedule,
    now: api.clock.now,
    ...(options.versioning && { versioning: options.versioning }),
    ...options.webhooks,
    endpoints: seed?.webhooks ?? [],
  });
  // POST /api/test_clock is a second door onto the same clock: it waits for deliveries under way too.
  api.settleBeforeClockChange(() => webhooks.settle());
  const examples = options.examples ?? loadSpecExamples();
  const corsOrigins = options.corsOrigins ?? '*';

  async function respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const read = header(request);
    const method = request.method ?? 'GET';
    const { path, query } = splitRequestTarget(request.url ?? '/');
    const isControl = path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
    // The control API is for test code, not pages: no CORS headers there, so a browser never hands its answers over.
    const cors = isControl ? {} : corsHeaders(corsOrigins, read);
    let truncated = false;
    // The address counts failed authentications under --rate-limit, as on the server (core's rule).
    let received: MockRequest = { method, path, query, header: read, headers: headersOf(request), body: null, clientAddress: request.socket.remoteAddress };
    const readRequest = async (): Promise<MockRequest> => {
      const body = await readBody(request, BODY_LIMIT_BYTES);
      truncated = body.truncated;
      received = { ...received, body: body.bytes };
      return received;
    };
    /** Whether core's `answer` saw the request (it journals it itself). */
    let journaled = isControl;
    let answer: MockAnswer;
    let preferredResponse = false;
    try {
      if (isControl) {
        checkControlAccess(read, options.controlToken, method);
        answer = await controlAnswer({ api, webhooks }, await readRequest());
      } else if (isPreflight(method, read)) {
        answer = { status: 204, headers: preflightHeaders(corsOrigins, read) };
      } else {
        const operation = operationFor(method, path);
        const preference = operation && parsePrefer(read('prefer'));
        const preferred = preference ? preferredAnswer(operation, preference, examples, read) : undefined;
        if (preferred && 'response' in preferred) {
          await readRequest();
          preferredResponse = true;
          answer = preferred.response;
        } else {
          journaled = true;
          answer = await api.answer(method, path, readRequest, preferred?.forced);
        }
      }
    } catch (caught) {
      if (caught instanceof ClientGoneError) throw caught;
      const requestId = resolveRequestId(read);
      if (!isApiError(caught)) onUnexpectedError(caught, requestId);
      const error = isApiError(caught) ? caught : errors.internal();
      answer = errorAnswer(error, { 'X-Request-Id': requestId, ...apiVersionHeaders(read) });
    }
    if (!journaled) api.record(received, answer, preferredResponse);
    // The rest of an oversized body is discarded unread, and the connection is not reused after it.
    writeAnswer(response, answer, { ...cors, ...(truncated ? { Connection: 'close' } : {}) });
  }

  // Node's own refusal of an HTTP/1.1 request without Host is an empty 400: core's refusal is answered instead.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    const noHost = missingHostRefusal(request.httpVersion, request.headers.host);
    if (noHost !== undefined) {
      const refused = refusedRequestAnswer(noHost, resolveRequestId(header(request)));
      response.shouldKeepAlive = false;
      response.writeHead(refused.status, refused.headers).end(refused.body);
      return;
    }
    respond(request, response).catch(() => response.socket?.destroy()); // the client went away mid-body
  });
  server.on('clientError', answerClientError);

  return {
    server,
    api,
    webhooks,
    listen: (port, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve(`http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`);
        });
      }),
    close: () =>
      new Promise((resolve, reject) => {
        webhooks.close();
        // Closing a mock that never listened (a test's setup failed before listen()) is not an error.
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
