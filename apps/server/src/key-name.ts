export const KEY_NAME_MAX_LENGTH = 100;

/** Half of a UTF-16 surrogate pair without its other half: not text, and stored as U+FFFD (or refused). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * C0 and C1 controls and DEL, and the bidirectional marks, embeddings, overrides and isolates (U+061C,
 * U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) that make a name display other than it reads ("Trojan Source").
 */
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * What is wrong with an API key's name (already trimmed), worded to follow the field's name, or undefined when
 * it is fine: 1 to 100 characters of well-formed Unicode without control or bidirectional formatting
 * characters, so that what is stored and shown is what was typed. The dashboard and the CLI share it.
 *
 * @example
 * keyNameProblem('prod\u202ekey'); // 'must not contain control or bidirectional formatting characters'
 */
export function keyNameProblem(name: string): string | undefined {
  if (name === '') return 'must not be empty';
  if ([...name].length > KEY_NAME_MAX_LENGTH) return `must be at most ${KEY_NAME_MAX_LENGTH} characters`;
  if (LONE_SURROGATE.test(name)) return 'must be valid Unicode text (no unpaired surrogates)';
  if (FORBIDDEN_IN_NAMES.test(name)) return 'must not contain control or bidirectional formatting characters';
  return undefined;
}
