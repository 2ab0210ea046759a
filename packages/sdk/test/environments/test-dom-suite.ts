import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, CustomersClient, NotFoundError, TimeoutError } from '../../src/index';
import { ADA, BASE_URL, ID, KEY } from '../helpers/fixtures';

/**
 * What the README's Testing section promises under a test DOM (the file calling this sets
 * `@vitest-environment`): the browser guard names the DOM, and with the opt-in the SDK works against MSW.
 */
export function testDomSuite(dom: 'happy-dom' | 'jsdom'): void {
  describe(`under ${dom}`, () => {
    const server = setupServer(
      http.get(`${BASE_URL}/api/customers/:id`, ({ params }) =>
        params.id === ID
          ? HttpResponse.json(ADA)
          : HttpResponse.json({ error: 'Not Found', message: 'Customer not found' }, { status: 404 }),
      ),
      http.delete(`${BASE_URL}/api/customers/:id`, () => new Promise<Response>(() => {})),
    );
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it('refuses to construct without the opt-in, and says why and what to do', () => {
      expect(navigator.userAgent).toContain(dom === 'jsdom' ? 'jsdom' : 'HappyDOM');
      const build = () => new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL });
      expect(build).toThrow(ConfigurationError);
      expect(build).toThrow(`this looks like ${dom} (a test DOM)`);
      expect(build).toThrow('dangerouslyAllowBrowser: true');
      expect(build).toThrow('@vitest-environment node');
    });

    it('runs against MSW with dangerouslyAllowBrowser: data, typed errors and deadlines', async () => {
      const client = new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, dangerouslyAllowBrowser: true });
      expect(await client.customers.get(ID)).toEqual(ADA);
      const { error } = await client.customers.get('6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90').result();
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error?.apiMessage).toBe('Customer not found');
      await expect(client.customers.delete(ID, { signal: AbortSignal.timeout(20) })).rejects.toBeInstanceOf(TimeoutError);
    });
  });
}
