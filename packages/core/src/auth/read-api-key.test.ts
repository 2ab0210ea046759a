import { expect, it } from 'vitest';
import { readApiKey } from './read-api-key.js';

const only = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()];

it('trims X-API-Key and ignores one that is only whitespace', () => {
  expect(readApiKey(only({ 'x-api-key': ' \tsk_live_a \t' }))).toBe('sk_live_a');
  expect(readApiKey(only({ 'x-api-key': ' \t', authorization: 'Bearer b' }))).toBe('b');
});

it('reads a Bearer token only when the whole header is "Bearer <token>"', () => {
  expect(readApiKey(only({ authorization: 'Bearer tok' }))).toBe('tok');
  expect(readApiKey(only({ authorization: 'BEARER\ttok\t ' }))).toBe('tok');
  // Anchored at the start: a scheme that merely ends in "Bearer" is another scheme.
  expect(readApiKey(only({ authorization: 'NotBearer tok' }))).toBeUndefined();
  expect(readApiKey(only({ authorization: ' Bearer tok' }))).toBeUndefined();
  // Anchored at the end: a second word is not part of a token, and the token is not cut to its first word.
  expect(readApiKey(only({ authorization: 'Bearer tok extra' }))).toBeUndefined();
  expect(readApiKey(only({ authorization: 'Bearer tok,x' }))).toBe('tok,x');
  expect(readApiKey(only({ authorization: 'Bearertok' }))).toBeUndefined();
  expect(readApiKey(only({ authorization: 'Bearer ' }))).toBeUndefined();
});
