import { describe, expect, it } from 'vitest';
import { parseNewWebhookEndpoint } from './webhook-input.js';

const ALL = ['customer.created', 'customer.updated', 'customer.deleted'];
const refusal = (body: unknown, allowPrivate = false) => {
  try {
    parseNewWebhookEndpoint(body, { allowPrivate });
  } catch (error) {
    return [(error as { status: number }).status, (error as Error).message];
  }
  return 'accepted';
};

describe('parseNewWebhookEndpoint', () => {
  it('accepts a public URL with every event type by default, and lists chosen types in the spec order', () => {
    expect(parseNewWebhookEndpoint({ url: 'https://shop.example.com/hooks' }, { allowPrivate: false })).toEqual({
      url: 'https://shop.example.com/hooks',
      events: ALL,
    });
    expect(
      parseNewWebhookEndpoint(
        { url: 'http://93.184.216.34:8080/x?y=1', events: ['customer.deleted', 'customer.created'] },
        { allowPrivate: false },
      ),
    ).toEqual({ url: 'http://93.184.216.34:8080/x?y=1', events: ['customer.created', 'customer.deleted'] });
  });

  it.each([
    [{}, 'url is required'],
    [{ url: null }, 'url is required'],
    [{ url: 42 }, 'url must be a string'],
    [{ url: 'not a url' }, 'url must be an absolute http or https URL'],
    [{ url: 'ftp://example.com/hook' }, 'url must be an http or https URL'],
    [{ url: 'https://user:pw@example.com/hook' }, 'url must not contain a user name or password'],
    [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'url must be at most 2048 characters'],
    [{ url: 'http://127.0.0.1:4242/hook' }, 'url must point at a public address (loopback and private networks are refused)'],
    [{ url: 'http://localhost/hook' }, 'url must point at a public address (loopback and private networks are refused)'],
    [{ url: 'http://169.254.169.254/latest' }, 'url must point at a public address (loopback and private networks are refused)'],
    [{ url: 'http://[::1]/hook' }, 'url must point at a public address (loopback and private networks are refused)'],
    [{ url: 'https://example.com', events: 'customer.created' }, 'events must be an array of event types'],
    [{ url: 'https://example.com', events: null }, 'events must be an array of event types'],
    [{ url: 'https://example.com', events: [] }, 'events must list at least one event type'],
    [{ url: 'https://example.com', events: ['customer.merged'] }, 'events[0] must be one of customer.created, customer.updated, customer.deleted'],
    [{ url: 'https://example.com', events: ['customer.created', 7] }, 'events[1] must be one of customer.created, customer.updated, customer.deleted'],
    [{ url: 'https://example.com', events: ['customer.updated', 'customer.updated'] }, 'events[1] repeats customer.updated'],
    [{ url: 'https://example.com', secret: 'whsec_AAAA' }, 'secret is not an allowed property'],
  ])('refuses %j with a 400 naming the property', (body, message) => {
    expect(refusal(body)).toEqual([400, message]);
  });

  it('accepts loopback and private addresses only when the server allows private webhooks', () => {
    for (const url of ['http://127.0.0.1:4242/hook', 'http://localhost:3001/hook', 'http://10.0.0.5/hook']) {
      expect(refusal({ url }, true)).toBe('accepted');
    }
    // The scheme and credential rules hold either way.
    expect(refusal({ url: 'file:///etc/passwd' }, true)).toEqual([400, 'url must be an http or https URL']);
  });
});
