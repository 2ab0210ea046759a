/** The two handler paths for a base URL, and the path prefix to strip before routing. */
export interface MountPoint {
  collection: string;
  items: string;
  basePath: string;
}

/**
 * Where the handlers listen. `'*'` (the default) matches the API on any origin, and relative URLs in a
 * browser; a full URL such as `https://api.example.com/v1` matches only there.
 *
 * @example
 * mountPoint('http://127.0.0.1:3000').items; // "http://127.0.0.1:3000/api/customers/*"
 */
export function mountPoint(baseUrl: string): MountPoint {
  const base = baseUrl.replace(/\/+$/, '');
  const basePath = base === '*' || base === '' ? '' : new URL(base).pathname.replace(/\/+$/, '');
  return { collection: `${base}/api/customers`, items: `${base}/api/customers/*`, basePath };
}
