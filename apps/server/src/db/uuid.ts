import { canonicalCustomerId } from '@customers-api/core';

/** The canonical (lower-case) form of a UUID given on the command line, or undefined when it is not one. */
export function canonicalUuid(value: string): string | undefined {
  // Core's path-id rule is exactly "is a UUID, in canonical form"; seller and key ids are UUIDs too.
  return canonicalCustomerId(value);
}
