import { VERSION } from '../version';
import { isBrowserLike } from './browser-guard';

type Globals = {
  Deno?: { version?: { deno?: string } };
  Bun?: { version?: string };
  process?: { versions?: { node?: string } };
  EdgeRuntime?: unknown;
};

/** `[runtime, version]`: Deno and Bun first (both also answer `process.versions.node`), then Node. */
export function runtime(): [string, string] {
  const g = globalThis as Globals;
  if (g.Deno?.version?.deno) return ['deno', g.Deno.version.deno];
  if (g.Bun?.version) return ['bun', g.Bun.version];
  if (g.EdgeRuntime) return ['edge', 'unknown'];
  if (g.process?.versions?.node) return ['node', g.process.versions.node];
  return [isBrowserLike() ? 'browser' : 'unknown', 'unknown'];
}

/**
 * The headers that tell the server which SDK and runtime sent a request. `User-Agent` only outside browsers:
 * they ignore it from fetch (or turn it into a CORS preflight), which is why the `X-Customers-Sdk-*` headers exist.
 */
export function sdkHeaders(): Record<string, string> {
  const [name, version] = runtime();
  const headers: Record<string, string> = {
    'X-Customers-Sdk-Version': VERSION,
    'X-Customers-Sdk-Runtime': name,
    'X-Customers-Sdk-Runtime-Version': version,
  };
  if (name !== 'browser') headers['User-Agent'] = `customers-api-sdk/${VERSION}`;
  return headers;
}
