import { describe, expect, it } from 'vitest';
import { parseNewWebhookEndpoint } from './webhook-input.js';

const refusal = (body: unknown) => {
  try {
    parseNewWebhookEndpoint(body);
  } catch (error) {
    return [(error as { status: number }).status, (error as Error).message];
  }
  return 'accepted';
};

describe('parseNewWebhookEndpoint', () => {
  it('passes url and events on as given (their rules are the repository\'s)', () => {
    expect(parseNewWebhookEndpoint({ url: 'https://shop.example.com/hooks' })).toEqual({ url: 'https://shop.example.com/hooks' });
    expect(parseNewWebhookEndpoint({ url: 'x', events: ['customer.deleted', 'nope'] })).toEqual({
      url: 'x',
      events: ['customer.deleted', 'nope'],
    });
  });

  it.each([
    [{}, 'url is required'],
    [{ url: null }, 'url is required'],
    [{ url: 42 }, 'url must be a string'],
    [{ url: ['https://example.com'] }, 'url must be a string'],
    [{ url: 'https://example.com', events: 'customer.created' }, 'events must be an array of event types'],
    [{ url: 'https://example.com', events: null }, 'events must be an array of event types'],
    [{ url: 'https://example.com', events: { 0: 'customer.created' } }, 'events must be an array of event types'],
    [{ url: 'https://example.com', events: ['customer.created', 7] }, 'events[1] must be a string'],
    [{ url: 'https://example.com', secret: 'whsec_AAAA' }, 'secret is not an allowed property'],
  ])('refuses %j with a 400 naming the property', (body, message) => {
    expect(refusal(body)).toEqual([400, message]);
  });
});
