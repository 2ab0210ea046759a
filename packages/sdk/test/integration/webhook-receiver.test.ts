import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomerEvent, verifyWebhook, WebhookVerificationError } from '../../src/index';
import { verifyWebhook as verifyStandalone } from '../../src/webhooks/index';
import { newSecret, signedHeaders, UPDATED } from '../helpers/webhooks';

// A real receiver over node:http, written like the README's: raw body first, verify, then act. The requests are
// signed by the Standard Webhooks reference library with the current time, as the server signs them.
const secret = newSecret();
const received: CustomerEvent[] = [];
let server: Server;
let url: string;

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    try {
      const event = await verifyWebhook(await rawBody(req), req.headers, secret);
      received.push(event);
      res.writeHead(204).end();
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`${err.reason}: ${err.message}`);
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

const now = () => Math.floor(Date.now() / 1000);

async function post(body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, text: await response.text() };
}

describe('a node:http receiver', () => {
  it('accepts a signed delivery and gets the typed event', async () => {
    received.length = 0;
    const body = JSON.stringify(UPDATED);
    expect(await post(body, signedHeaders(body, [secret], { timestamp: now() }))).toEqual({ status: 204, text: '' });
    expect(received).toEqual([UPDATED]);
  });

  it('refuses a tampered body, a wrong secret, an old timestamp and a missing header with 400 and the reason', async () => {
    received.length = 0;
    const body = JSON.stringify(UPDATED);
    const fresh = signedHeaders(body, [secret], { timestamp: now() });
    const { 'webhook-signature': _, ...unsigned } = fresh;
    const answers = await Promise.all([
      post(body.replace('suspended', 'active'), fresh),
      post(body, signedHeaders(body, [newSecret()], { timestamp: now() })),
      post(body, signedHeaders(body, [secret], { timestamp: now() - 301 })),
      post(body, unsigned),
    ]);
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
    expect(answers.map((a) => a.text.split(':')[0])).toEqual([
      'no_matching_signature',
      'no_matching_signature',
      'timestamp_too_old',
      'missing_header',
    ]);
    expect(received).toEqual([]);
  });

  it('accepts webhook-signature sent as two header lines (Node joins them with a comma)', async () => {
    received.length = 0;
    const body = JSON.stringify(UPDATED);
    const fresh = signedHeaders(body, [secret, newSecret()], { timestamp: now() }); // the matching one first: before the comma
    const [first, second] = fresh['webhook-signature'].split(' ');
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.setHeader('webhook-id', fresh['webhook-id']);
      req.setHeader('webhook-timestamp', fresh['webhook-timestamp']);
      req.setHeader('webhook-signature', [first!, second!]); // two header lines on the wire
      req.end(body);
    });
    expect(status).toBe(204);
    expect(received).toEqual([UPDATED]);
  });
});

describe('a fetch-style receiver (Request in, Response out: Bun, Deno, edge runtimes, Next.js route handlers)', () => {
  async function handle(request: Request): Promise<Response> {
    try {
      const event = await verifyStandalone(await request.arrayBuffer(), request.headers, secret);
      return Response.json({ received: event.id });
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(err.message, { status: 400 });
      throw err;
    }
  }

  it('verifies the body read as an ArrayBuffer with the Request headers', async () => {
    const body = JSON.stringify(UPDATED);
    const ok = await handle(new Request(url, { method: 'POST', headers: signedHeaders(body, [secret], { timestamp: now() }), body }));
    expect(await ok.json()).toEqual({ received: UPDATED.id });
    const tampered = new Request(url, { method: 'POST', headers: signedHeaders(body, [secret], { timestamp: now() }), body: `${body} ` });
    expect((await handle(tampered)).status).toBe(400);
  });
});
