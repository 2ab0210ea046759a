// The restricted-key form's choices and the keys list's words, both from core's scope list (generated from
// openapi.yaml's `x-scopes`), so a resource or scope added to the API appears here without a hand-kept list. The
// generated file is plain data and is read directly: core's package entry would bundle all of core into the page.

import { SPEC_SCOPES as SCOPES } from '../../../packages/core/src/generated/operations.js';

/** A resource's grant in the form: nothing, read, or write (which includes read here; see {@link scopesFor}). */
export type Level = 'none' | 'read' | 'write';

/** One resource of the form: its name in scopes, its label, and the levels its scopes allow. */
export interface Grant {
  resource: string;
  label: string;
  levels: ('read' | 'write')[];
}

const labelOf = (resource: string) => {
  const words = resource.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Every resource with a scope, in the spec's order (`customers`, `webhook_endpoints`, `events`, …). */
export const GRANTS: readonly Grant[] = (() => {
  const grants = new Map<string, Grant>();
  for (const scope of SCOPES) {
    const [resource, access] = scope.split(':') as [string, 'read' | 'write'];
    const grant = grants.get(resource) ?? { resource, label: labelOf(resource), levels: [] };
    grant.levels.push(access);
    grants.set(resource, grant);
  }
  return [...grants.values()];
})();

/**
 * The scopes of the form's choices. The server's rule is that `:write` does not imply `:read`; in the form, write
 * means "can change it", and nobody can sensibly change what they cannot read, so write sends both scopes.
 *
 * @example
 * scopesFor([{ resource: 'customers', level: 'write' }, { resource: 'events', level: 'read' }]);
 * // ['customers:read', 'customers:write', 'events:read']
 */
export function scopesFor(choices: readonly { resource: string; level: Level }[]): string[] {
  const wanted = new Set<string>();
  for (const { resource, level } of choices) {
    if (level === 'none') continue;
    wanted.add(`${resource}:read`);
    if (level === 'write') wanted.add(`${resource}:write`);
  }
  return SCOPES.filter((scope) => wanted.has(scope));
}

/**
 * A key's access in words for the keys list: a secret key has full access; a restricted key, per resource in the
 * spec's order, what it may do.
 *
 * @example
 * accessWords(['customers:read', 'events:read']); // "Restricted: Customers (read), Events (read)"
 */
export function accessWords(scopes: readonly string[] | null): string {
  if (scopes === null) return 'Secret: full access';
  const parts = GRANTS.flatMap(({ resource, label }) => {
    const read = scopes.includes(`${resource}:read`);
    const write = scopes.includes(`${resource}:write`);
    if (!read && !write) return [];
    return [`${label} (${read && write ? 'read and write' : read ? 'read' : 'write only'})`];
  });
  return `Restricted: ${parts.join(', ')}`;
}
