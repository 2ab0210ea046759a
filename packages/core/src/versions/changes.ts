import type { VersionChange } from './version-change.js';

/**
 * The API's version changes, one module each (`changes/<version>-<what>.ts`), listed here. None yet: the API has
 * one version. A breaking change to openapi.yaml comes as a new version in `x-api-versions` and a change here
 * that translates it for callers of the versions before (see README: Changing the API).
 */
export const VERSION_CHANGES: readonly VersionChange[] = [];
