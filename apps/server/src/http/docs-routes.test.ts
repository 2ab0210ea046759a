import { describe, expect, it } from 'vitest';
import { useTestServer } from '../test/use-test-server.js';
import { DOCS_CONTENT_SECURITY_POLICY } from './security-headers.js';

describe('the API reference (/docs)', () => {
  const suite = useTestServer('sqlite');

  it('serves the page and every asset it loads with a strict CSP and the dashboard security headers', async () => {
    const page = await suite.server.call('GET', '/docs/');
    const assets = [...page.text.matchAll(/(?:href|src)="\.\/([^"]+)"/g)].map((m) => `/docs/${m[1]}`);
    expect(assets.length).toBeGreaterThan(3);
    for (const path of ['/docs', '/docs/', '/docs/json', '/docs/static/swagger-initializer.js', ...assets]) {
      const response = await fetch(`${suite.server.url}${path}`, { redirect: 'manual' });
      await response.arrayBuffer();
      expect(response.status, path).toBeLessThan(400);
      expect(response.headers.get('content-security-policy'), path).toBe(DOCS_CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('same-origin');
    }
    expect(DOCS_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self' 'sha256-/);
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('has no inline scripts in its page (the CSP would block them)', async () => {
    const { text } = await suite.server.call('GET', '/docs/');
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
