// StrykerJS over the SDK's sources with its unit tests (`pnpm mutation` at the root); vitest.mutation.config.ts
// leaves out the tests of the built package and of real servers.
import { strykerConfig } from '../../stryker.base.mjs';

export default strykerConfig({ vitestConfig: 'vitest.mutation.config.ts' });
