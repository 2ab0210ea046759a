// docs/api-changelog.md is generated from x-api-versions: a section per version, where a deprecated version's
// `Link: <…>; rel="deprecation"` points.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_CHANGELOG_URL, API_VERSIONS, deprecationHeaders } from '../src/index.js';

function findChangelog(): string {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const candidate = new URL('docs/api-changelog.md', dir);
    if (existsSync(candidate)) return fileURLToPath(candidate);
  }
  throw new Error('docs/api-changelog.md not found above packages/core/test');
}

describe('docs/api-changelog.md', () => {
  const changelog = readFileSync(findChangelog(), 'utf8');

  it('has a section per version, newest first, with its summary', () => {
    const headings = [...changelog.matchAll(/^## (\S+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual(API_VERSIONS.map((entry) => entry.version));
    for (const entry of API_VERSIONS) expect(changelog).toContain(entry.summary);
  });

  it('is where a deprecated version’s Link points', () => {
    expect(API_CHANGELOG_URL.endsWith('/docs/api-changelog.md')).toBe(true);
    const link = deprecationHeaders({ version: API_VERSIONS[0]!.version, summary: '', deprecated: '2030-01-01' })?.Link;
    expect(link).toBe(`<${API_CHANGELOG_URL}#${API_VERSIONS[0]!.version}>; rel="deprecation"`);
  });
});
