import { describe, expect, it } from 'vitest';
import { deprecationLink } from './deprecation';

describe('deprecationLink', () => {
  it('picks the rel="deprecation" URL among several links, and nothing when there is none', () => {
    expect(deprecationLink('<https://a.example/next>; rel="successor-version", <https://a.example/d>; rel="deprecation"')).toBe('https://a.example/d');
    expect(deprecationLink('<https://a.example/d>; rel=deprecation; type="text/html"')).toBe('https://a.example/d');
    expect(deprecationLink('<https://a.example/next>; rel="successor-version"')).toBeUndefined();
    expect(deprecationLink(null)).toBeUndefined();
  });
});
