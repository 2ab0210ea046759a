// StrykerJS over core's sources with the package's own vitest suite (`pnpm mutation` at the root).
import { strykerConfig } from '../../stryker.base.mjs';

const base = strykerConfig({ vitestConfig: 'vitest.config.ts' });

export default {
  ...base,
  // src/testing is the store conformance suite: test code shipped for other stores, not behaviour to mutate.
  mutate: [...base.mutate, '!src/testing/**'],
};
