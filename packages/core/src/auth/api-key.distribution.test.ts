import { expect, it } from 'vitest';
import { generateApiKey } from './api-key.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

it('draws every key character uniformly from all 62 alphanumerics (chi-square over 5,000 keys)', () => {
  const counts = new Map<string, number>([...ALPHABET].map((c) => [c, 0]));
  const keys = 5_000;
  for (let i = 0; i < keys; i++) {
    for (const c of generateApiKey().slice('sk_live_'.length)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  expect([...counts.keys()].join('')).toBe(ALPHABET); // nothing outside the alphabet
  const expected = (keys * 48) / ALPHABET.length;
  const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
  // 61 degrees of freedom: mean 61, P(χ² > 130) < 1e-6 for a uniform draw. A modulo bias (256 % 62 = 8,
  // so A–H one draw in 52 more often) gives about 250; a draw from only A–H gives millions.
  expect(chiSquare).toBeLessThan(130);
  for (const c of ALPHABET) expect(counts.get(c), c).toBeGreaterThan(expected * 0.85);
});
