// A seller's webhook receiver as it would run in production: at start it registers its endpoint through the SDK
// (creating it the first time, pointing it at its current URL afterwards), then catches up on what it missed while
// it was down through the events list, and verifies and handles every delivery, each event once by its id.
// The caller passes the SDK module (ESM import or require()), a client and a state file, as seller-flow.cjs does.
const { createServer } = require('node:http');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');

/**
 * @param {typeof import('@customers-api/sdk')} sdk
 * @param {{ client: import('@customers-api/sdk').CustomersClient, stateFile: string,
 *           handle: (event: import('@customers-api/sdk').CustomerEvent) => void | Promise<void> }} options
 */
module.exports = function createWebhookApp(sdk, { client, stateFile, handle }) {
  // What survives a restart: the endpoint, its secret (shown once, at create) and the ids already handled. A real
  // app keeps them in its database, the ids for as long as events are retained (30 days).
  const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : { endpointId: null, secret: null, handled: [] };
  const handled = new Set(state.handled);
  const save = () => writeFileSync(stateFile, JSON.stringify({ ...state, handled: [...handled] }));
  let server;

  /** Handles an event unless it already was: deliveries, their retries and the catch-up may all bring it. */
  async function handleOnce(event) {
    if (handled.has(event.id)) return;
    handled.add(event.id); // before any await: a delivery arriving meanwhile sees it
    await handle(event);
    save();
  }

  async function onRequest(request, response) {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    let event;
    try {
      event = await sdk.verifyWebhook(Buffer.concat(chunks), request.headers, state.secret);
    } catch (error) {
      if (!(error instanceof sdk.WebhookVerificationError)) throw error;
      response.writeHead(400).end();
      return;
    }
    await handleOnce(event);
    response.writeHead(204).end();
  }

  /** Registers the endpoint at `url` (deploy time): the same endpoint across restarts, its URL kept current. */
  async function register(url) {
    if (state.endpointId) {
      try {
        await client.webhookEndpoints.update(state.endpointId, { url });
        return;
      } catch (error) {
        if (!(error instanceof sdk.NotFoundError)) throw error; // deleted meanwhile: register again
      }
    }
    const endpoint = await client.webhookEndpoints.create({ url, description: 'seller-app receiver' });
    Object.assign(state, { endpointId: endpoint.id, secret: endpoint.secret });
    save();
  }

  /**
   * What the endpoint has not acknowledged (missed while down, or still retrying), oldest first so that each
   * customer's changes apply in order; an event delivered meanwhile is handled once all the same.
   */
  async function catchUp() {
    const missed = [];
    for await (const event of client.events.list({ undelivered_to: state.endpointId, limit: 100 })) missed.push(event);
    for (const event of missed.reverse()) await handleOnce(event);
    return missed.length;
  }

  return {
    /** Listens on 127.0.0.1 (a free port unless given), registers the endpoint there, then catches up. */
    async start(port = 0) {
      server = createServer((request, response) => {
        onRequest(request, response).catch(() => response.writeHead(500).end());
      });
      await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${server.address().port}/webhooks`;
      await register(url);
      const caughtUp = await catchUp();
      return { url, endpointId: state.endpointId, caughtUp };
    },
    /** Stops receiving: deliveries fail (connection refused) until the next start. */
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
