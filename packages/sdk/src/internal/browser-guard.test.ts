import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../core/errors';
import { guardBrowser } from './browser-guard';

// In Node, with the globals a browser or a test DOM would have stubbed in (test/environments runs the real DOMs).
function browserLike(userAgent?: string): void {
  vi.stubGlobal('window', {});
  vi.stubGlobal('document', {});
  if (userAgent !== undefined) vi.stubGlobal('navigator', { userAgent });
}

function refusal(): string {
  try {
    guardBrowser(undefined);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('guardBrowser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lets Node through, and a browser only with the opt-in', () => {
    expect(() => guardBrowser(undefined)).not.toThrow();
    browserLike('Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0');
    expect(() => guardBrowser(true)).not.toThrow();
    expect(() => guardBrowser(false)).toThrow(ConfigurationError);
  });

  it('needs both window and document to call a runtime a browser', () => {
    vi.stubGlobal('document', {});
    expect(() => guardBrowser(undefined)).not.toThrow();
  });

  it('tells a real browser that the key would be exposed', () => {
    browserLike('Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0');
    expect(refusal()).toBe(
      'CustomersClient refuses to run in a browser: the API key would be exposed to every visitor. ' +
        'Call the API from your server, or pass { dangerouslyAllowBrowser: true } if you understand the risk.',
    );
  });

  it.each([
    ['Mozilla/5.0 (linux) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/26.1.0', 'jsdom'],
    ['Mozilla/5.0 (X11; Linux x64) AppleWebKit/537.36 (KHTML, like Gecko) HappyDOM/20.0.0', 'happy-dom'],
  ])('names the test DOM in %s', (userAgent, dom) => {
    browserLike(userAgent);
    expect(refusal()).toBe(
      `CustomersClient refuses to run in a browser, and this looks like ${dom} (a test DOM). In tests, run SDK ` +
        "code in Node (vitest: // @vitest-environment node) or pass { dangerouslyAllowBrowser: true } to the test's client: " +
        'see Testing in the SDK README.',
    );
  });

  it('does not take a name that merely contains jsdom, or a user agent that is not text, for a test DOM', () => {
    browserLike('Mozilla/5.0 notjsdom/1.0');
    expect(refusal()).toContain('the API key would be exposed');
    browserLike();
    vi.stubGlobal('navigator', { userAgent: 42 });
    expect(refusal()).toContain('the API key would be exposed');
  });
});
