// Which key a roll replaced, read from the keys themselves (a roll makes a key of the same name now and gives the
// old one an expiry at the end of the overlap), and the order they are shown in: each new key right above the one
// it replaces, where the seller last saw that key, instead of at the bottom of the oldest-first list.

import type { Schemas } from './api.js';

type Key = Schemas['Key'];

/**
 * For each active key with an expiry that a newer active key of the same name outlives: that newer key (the
 * oldest such, so a chain of rolls reads newest to oldest).
 */
export function replacements(keys: readonly Key[]): Map<string, Key> {
  const replaced = new Map<string, Key>();
  for (const old of keys) {
    if (old.status !== 'active' || old.expires_at === null) continue;
    const expires = Date.parse(old.expires_at);
    const successor = keys
      .filter((key) => key.id !== old.id && key.name === old.name && key.status === 'active')
      .filter((key) => Date.parse(key.created_at) >= Date.parse(old.created_at) && Date.parse(key.created_at) <= expires)
      .filter((key) => key.expires_at === null || Date.parse(key.expires_at) > expires)
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))[0];
    if (successor) replaced.set(old.id, successor);
  }
  return replaced;
}

/** The keys in the list's order, except that each replacement comes right before the key it replaced. */
export function displayOrder(keys: readonly Key[], replaced: ReadonlyMap<string, Key>): Key[] {
  const placed = new Set<string>();
  const shown: Key[] = [];
  const chain = (key: Key): Key[] => {
    if (placed.has(key.id)) return [];
    placed.add(key.id);
    const next = replaced.get(key.id);
    return [...(next ? chain(next) : []), key];
  };
  for (const key of keys) shown.push(...chain(key));
  return shown;
}
