// The page under test: the handlers behind a real service worker (`setupWorker`), in Chromium.
import type { Customer } from '@customers-api/core';
import { setupWorker } from 'msw/browser';
import { createCustomersMock, type CustomersMock } from '../../src/index.js';

// No `sellers`: any well-formed key is the one default seller.
const mock = createCustomersMock({
  customerLimit: 2,
  seed: [{ customers: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' }] }],
});
const worker = setupWorker(...mock.handlers);

declare global {
  interface Window {
    /** Resolves with the seeded customer once the worker intercepts requests. */
    mockReady: Promise<Customer>;
    mock: CustomersMock;
  }
}

window.mock = mock;
window.mockReady = worker
  .start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } })
  .then(() => mock.ready)
  .then(([grace]) => grace!);
