import { expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without declarations
import { BUDGET_BYTES, measure, measureWebhooks, WEBHOOKS_BUDGET_BYTES } from '../scripts/size.mjs';

interface Size {
  minified: number;
  gzipped: number;
}

it('keeps the minified + gzipped ESM bundle (openapi-fetch included) under 8 kB', async () => {
  const { minified, gzipped, lazy } = (await measure()) as Size & { lazy: Size };
  console.log(`[size] dist/index.js bundled with openapi-fetch: ${minified} B minified, ${gzipped} B gzipped (budget ${BUDGET_BYTES} B)`);
  console.log(`[size] loaded on first use (the webhook verifier): ${lazy.minified} B minified, ${lazy.gzipped} B gzipped`);
  expect(gzipped).toBeGreaterThan(1000); // sanity: it really bundled something
  expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  // The verifier is split off: a bundler that follows import() puts it in a chunk of its own.
  expect(lazy.gzipped).toBeGreaterThan(500);
});

it('keeps @customers-api/sdk/webhooks alone (the verifier, no client) under 3 kB', async () => {
  const { minified, gzipped } = (await measureWebhooks()) as Size;
  console.log(`[size] dist/webhooks.js: ${minified} B minified, ${gzipped} B gzipped (budget ${WEBHOOKS_BUDGET_BYTES} B)`);
  expect(gzipped).toBeGreaterThan(500);
  expect(gzipped).toBeLessThanOrEqual(WEBHOOKS_BUDGET_BYTES);
});
