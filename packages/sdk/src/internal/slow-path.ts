/**
 * The helpers and texts off the happy path (failures, retries, aborts, deprecations, logging), loaded on first use
 * from one lazy chunk (`error-hints.ts`). Every module of the entry loads it through this one function, so the
 * entry chunk spells the chunk's import once.
 */
export const slowPath = () => import('./error-hints');
