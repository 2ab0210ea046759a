import createClientImport from 'openapi-fetch';

/**
 * openapi-fetch's `createClient`, in both builds. Our CJS build requires openapi-fetch's CJS file, and
 * Node-style interop then hands us its whole `exports` object (with `.default`) as the default import.
 */
export const createClient: typeof createClientImport =
  typeof createClientImport === 'function'
    ? createClientImport
    : (createClientImport as unknown as { default: typeof createClientImport }).default;
