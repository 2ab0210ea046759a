import { customerEvent, generateWebhookSecret, newEventId, type CustomerEvent } from '@customers-api/core';
import { sampleCustomer } from '@customers-api/core/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../test/support.js';
import { sendWebhook } from './webhook-send.js';

const customer = sampleCustomer('9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a');
const event: CustomerEvent = customerEvent({
  eventId: newEventId(),
  type: 'customer.created',
  sellerId: customer.seller_id,
  mode: 'live',
  customerId: customer.id,
  sequence: 1,
  occurredAt: customer.updated_at,
  customer: { ...customer, first_name: 'Zoë 😀' },
});
const secret = generateWebhookSecret();
let receivers: Receiver[] = [];
const receiver = async () => {
  const started = await startReceiver();
  receivers.push(started);
  return started;
};

afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('sendWebhook', () => {
  it('POSTs the event as JSON, signed so that the standardwebhooks library verifies it', async () => {
    const target = await receiver();
    expect(await sendWebhook(target.url, secret, event)).toEqual({ status: 204, error: null });
    const [got] = target.received;
    expect(got).toMatchObject({ method: 'POST', path: '/webhooks', headers: { 'content-type': 'application/json', 'webhook-id': event.id } });
    expect(JSON.parse(got!.body)).toEqual(event);
    expect(new Webhook(secret).verify(got!.body, got!.headers)).toEqual(event);
    expect(() => new Webhook(generateWebhookSecret()).verify(got!.body, got!.headers)).toThrow();
    expect(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('does not follow a redirect: the 3xx is the outcome', async () => {
    const target = await receiver();
    const elsewhere = await receiver();
    target.reply = () => ({ status: 307, headers: { Location: elsewhere.url } });
    expect(await sendWebhook(target.url, secret, event)).toEqual({ status: 307, error: null });
    expect(elsewhere.received).toEqual([]);
  });

  it('gives up on a receiver that does not answer in time, and reports a refused connection', async () => {
    const target = await receiver();
    target.reply = () => 'hang';
    expect(await sendWebhook(target.url, secret, event, { timeoutMs: 100 })).toEqual({ status: null, error: 'no answer within 100 ms' });
    const closed = await receiver();
    await closed.close();
    receivers = receivers.filter((r) => r !== closed);
    const refused = await sendWebhook(closed.url, secret, event);
    expect(refused.status).toBeNull();
    expect(refused.error).toMatch(/^ECONNREFUSED/);
  });

  it('stops when its signal aborts', async () => {
    const target = await receiver();
    target.reply = () => 'hang';
    const stop = new AbortController();
    const sending = sendWebhook(target.url, secret, event, { signal: stop.signal });
    await target.waitFor(1);
    stop.abort();
    expect(await sending).toEqual({ status: null, error: 'stopped: the mock closed' });
  });
});
