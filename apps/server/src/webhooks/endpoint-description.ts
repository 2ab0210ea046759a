// An endpoint's description: the seller's own note, checked the same on creation and on edits.

export const DESCRIPTION_MAX_LENGTH = 200;

/** C0/C1 controls, DEL and the bidirectional formatting characters: a description shows as it reads. */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * What is wrong with a description (naming `description`), or undefined: at most 200 characters of text without
 * control or bidirectional formatting characters; '' is none.
 *
 * @example
 * descriptionProblem('CRM sync'); // undefined
 */
export function descriptionProblem(description: string): string | undefined {
  if ([...description].length > DESCRIPTION_MAX_LENGTH) return `description must be at most ${DESCRIPTION_MAX_LENGTH} characters`;
  if (FORBIDDEN.test(description)) return 'description must not contain control or bidirectional formatting characters';
  return undefined;
}
