import { ConfigurationError } from '../core/errors';

/** True in a browser-like runtime (a `window` and a `document`), where an API key would be exposed. */
export function isBrowserLike(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}

/** `jsdom` or `happy-dom` when the browser-like runtime is one of these test DOMs (told by its user agent). */
function testDomName(): string | undefined {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  const match = typeof agent === 'string' ? /\b(jsdom|HappyDOM)\//.exec(agent) : null;
  return match ? (match[1] === 'jsdom' ? 'jsdom' : 'happy-dom') : undefined;
}

/**
 * Throws a {@link ConfigurationError} in a browser-like runtime unless the caller opted in: an API key in a
 * browser is exposed to every visitor. Under happy-dom or jsdom the message says how tests opt in.
 */
export function guardBrowser(dangerouslyAllowBrowser: boolean | undefined): void {
  if (!isBrowserLike() || dangerouslyAllowBrowser === true) return;
  const dom = testDomName();
  throw new ConfigurationError(
    dom
      ? `CustomersClient refuses to run in a browser, and this looks like ${dom} (a test DOM). In tests, run SDK ` +
          "code in Node (vitest: // @vitest-environment node) or pass { dangerouslyAllowBrowser: true } to the test's client: " +
          'see Testing in the SDK README.'
      : 'CustomersClient refuses to run in a browser: the API key would be exposed to every visitor. ' +
          'Call the API from your server, or pass { dangerouslyAllowBrowser: true } if you understand the risk.',
  );
}
