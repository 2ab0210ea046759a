// An endpoint's description: the seller's own note, checked the same on creation and on edits, by core's rule
// (the public API's webhook endpoints and the dashboard alike).
export { DESCRIPTION_MAX_LENGTH, descriptionProblem } from '@customers-api/core';
