import { expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without declarations
import { BUDGET_BYTES, GOAL_BYTES, measure, measureExports, measurePlainBundle, measureWebhooks, WEBHOOKS_BUDGET_BYTES } from '../scripts/size.mjs';

interface Size {
  minified: number;
  gzipped: number;
}

it('keeps the entry chunk and the chunks it imports statically within its budget (issue 27 goal: 6 kB, min + gzip), openapi-fetch included', async () => {
  expect(BUDGET_BYTES).toBe(6144);
  expect(GOAL_BYTES).toBe(6144);
  const { minified, gzipped, lazy } = (await measure()) as Size & { lazy: Size };
  console.log(`[size] dist/index.js bundled: ${minified} B minified, ${gzipped} B gzipped (budget ${BUDGET_BYTES} B, goal ${GOAL_BYTES} B)`);
  console.log(`[size] loaded on first use (the webhook verifier; the failure, retry and logging helpers): ${lazy.minified} B minified, ${lazy.gzipped} B gzipped`);
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

it('says what each export costs alone: the error classes are small, the client is most of the bundle', async () => {
  const rows = (await measureExports()) as Array<{ name: string; gzipped: number }>;
  const cost = Object.fromEntries(rows.map((r) => [r.name, r.gzipped]));
  console.log(`[size] per export: ${rows.map((r) => `${r.name} ${r.gzipped} B`).join(', ')}`);
  expect(cost.CustomersClient).toBeLessThanOrEqual(BUDGET_BYTES);
  expect(cost.NotFoundError).toBeLessThan(1024); // an error class does not drag the client in
  expect(cost.VERSION).toBeLessThan(200);
});

it('reports a plain esbuild --bundle of a three-line use too (no splitting): bigger than the split entry chunk', async () => {
  const split = (await measure()) as Size & { lazy: Size };
  const { esm, cjs } = (await measurePlainBundle()) as { esm: Size; cjs: Size };
  console.log(`[size] three-line use, plain esbuild --bundle --minify: ESM ${esm.gzipped} B gzipped, CommonJS ${cjs.gzipped} B gzipped (split entry chunk ${split.gzipped} B)`);
  // One file: the entry chunk and what it loads on first use, together.
  expect(esm.gzipped).toBeGreaterThan(split.gzipped);
  expect(cjs.gzipped).toBeGreaterThan(split.gzipped);
  // The README says "about N kB" for each: a figure that moved by more than a kB makes it wrong.
  expect(Math.abs(esm.gzipped - 9_300)).toBeLessThan(1_024);
  expect(Math.abs(cjs.gzipped - 12_400)).toBeLessThan(1_024);
});
