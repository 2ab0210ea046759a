// The page under test: the handlers behind a real service worker (`setupWorker`), in Chromium.
import { setupWorker } from 'msw/browser';
import { createCustomersMock } from '../../src/index.js';

const mock = createCustomersMock({ sellers: [{ customerLimit: 1 }] });
const worker = setupWorker(...mock.handlers);

declare global {
  interface Window {
    /** Resolves with the seller's API key once the worker intercepts requests. */
    mockReady: Promise<string>;
  }
}

window.mockReady = worker
  .start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } })
  .then(() => mock.sellers[0]!.apiKey);
