/**
 * Reads an environment variable where one exists (Node, Bun, Deno with `process`), and never throws:
 * Deno without `--allow-env` throws on access, browsers have no `process`.
 */
export function readEnv(name: string): string | undefined {
  try {
    const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
    const value = proc?.env?.[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** True in a browser-like runtime (a `window` and a `document`), where an API key would be exposed. */
export function isBrowserLike(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
}

/** `jsdom` or `happy-dom` when the browser-like runtime is one of these test DOMs (told by its user agent). */
export function testDomName(): string | undefined {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  const match = typeof agent === 'string' ? /\b(jsdom|HappyDOM)\//.exec(agent) : null;
  return match ? (match[1] === 'jsdom' ? 'jsdom' : 'happy-dom') : undefined;
}
