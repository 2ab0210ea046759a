export type Route =
  | { name: 'collection'; allowed: readonly ['POST'] }
  | { name: 'item'; id: string; allowed: readonly ['GET', 'PATCH', 'DELETE'] };

const COLLECTION = '/api/customers';

/**
 * Which of the two API paths a request path is, with the percent-decoded `{id}`; undefined for any other
 * path. Whether the id is a UUID is decided later, so that a malformed id answers like a missing one.
 *
 * @example
 * matchRoute('/api/customers/abc'); // { name: 'item', id: 'abc', ... }
 */
export function matchRoute(path: string): Route | undefined {
  if (path === COLLECTION) return { name: 'collection', allowed: ['POST'] };
  if (!path.startsWith(`${COLLECTION}/`)) return undefined;
  const segment = path.slice(COLLECTION.length + 1);
  if (segment === '' || segment.includes('/')) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment; // not valid percent-encoding: certainly not a UUID, so it answers 404 like one
  }
  return { name: 'item', id, allowed: ['GET', 'PATCH', 'DELETE'] };
}
