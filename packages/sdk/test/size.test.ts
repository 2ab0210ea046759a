import { expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without declarations
import { BUDGET_BYTES, measure } from '../scripts/size.mjs';

it('keeps the minified + gzipped ESM bundle (openapi-fetch included) under 8 kB', async () => {
  const { minified, gzipped } = (await measure()) as { minified: number; gzipped: number };
  console.log(`[size] dist/index.js bundled with openapi-fetch: ${minified} B minified, ${gzipped} B gzipped (budget ${BUDGET_BYTES} B)`);
  expect(gzipped).toBeGreaterThan(1000); // sanity: it really bundled something
  expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
});
