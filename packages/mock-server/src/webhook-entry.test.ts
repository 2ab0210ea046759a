import { describe, expect, it } from 'vitest';
import { webhookEntryAt } from './webhook-entry.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const problemOf = (value: unknown) => {
  try {
    webhookEntryAt(value, 'seed.webhooks[0]');
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('webhookEntryAt', () => {
  it('takes a URL (private addresses too), a secret, event types and a seller', () => {
    expect(webhookEntryAt({ url: 'http://127.0.0.1:9000/hook' }, 'body')).toEqual({ url: 'http://127.0.0.1:9000/hook' });
    const seller = '9B2E7D4C-1A3F-4E5B-8C6D-0F1E2D3C4B5A';
    expect(webhookEntryAt({ url: 'https://localhost/h', secret, events: ['customer.deleted'], sellerId: seller }, 'body')).toEqual({
      url: 'https://localhost/h',
      secret,
      events: ['customer.deleted'],
      sellerId: seller.toLowerCase(),
    });
  });

  it('keeps the URL normalized as the server stores it', () => {
    expect(webhookEntryAt({ url: 'HTTPS://Hooks.Example.COM:443/a/../hooks' }, 'body')).toEqual({ url: 'https://hooks.example.com/hooks' });
    expect(webhookEntryAt({ url: 'http://127.0.0.1:80/h' }, 'body')).toEqual({ url: 'http://127.0.0.1/h' });
  });

  it('refuses a bad entry, naming it', () => {
    const cases: Array<[unknown, string]> = [
      ['http://x', 'seed.webhooks[0]: must be an object'],
      [{}, 'seed.webhooks[0].url: is required: an http or https URL'],
      [{ url: 'ftp://example.com/hook' }, 'seed.webhooks[0].url: must be an http or https URL'],
      [{ url: '/hook' }, 'seed.webhooks[0].url: must be an absolute http or https URL'],
      [{ url: 'http://user:pw@example.com/' }, 'seed.webhooks[0].url: must not contain a user name or password'],
      [{ url: 'http://a.test', secret: 'sk_live_x' }, 'seed.webhooks[0].secret: must be whsec_ followed by base64, e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      [{ url: 'http://a.test', events: [] }, 'seed.webhooks[0].events: must be a non-empty array of customer.created, customer.updated, customer.deleted'],
      [{ url: 'http://a.test', events: ['customer.created', 'customer.merged'] }, 'seed.webhooks[0].events[1]: must be one of customer.created, customer.updated, customer.deleted'],
      [{ url: 'http://a.test', events: ['customer.created', 'customer.created'] }, 'seed.webhooks[0].events[1]: is already listed at seed.webhooks[0].events[0]'],
      [{ url: 'http://a.test', sellerId: 'shop' }, 'seed.webhooks[0].sellerId: must be a UUID'],
      [{ url: 'http://a.test', seller: 'x' }, 'seed.webhooks[0].seller: is not allowed; use url, secret, events, sellerId, apiVersion'],
    ];
    for (const [value, message] of cases) expect(problemOf(value)).toBe(message);
  });
});
