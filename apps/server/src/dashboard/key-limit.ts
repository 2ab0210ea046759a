/** How many unexpired API keys a seller may hold unless the operator sets its own (`sellers update --key-limit`). */
export const DEFAULT_API_KEY_LIMIT = 100;

/** The most keys one page of the dashboard's key list holds (and its default size). */
export const KEY_PAGE_LIMIT = 100;

/**
 * The refusal at the cap, naming it.
 *
 * @example
 * keyLimitMessage(100); // 'API key limit reached: this account may have at most 100 unexpired API keys; …'
 */
export function keyLimitMessage(limit: number): string {
  return (
    `API key limit reached: this account may have at most ${limit} unexpired API ${limit === 1 ? 'key' : 'keys'}; ` +
    'delete keys you no longer use (revoked keys count until deleted or expired), or ask the operator for a higher limit'
  );
}
