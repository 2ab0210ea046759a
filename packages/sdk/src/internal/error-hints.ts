/**
 * How to fix each error status, for the error's `message`. Loaded with `import()` on the first error response
 * (client.ts), so a client whose calls succeed never downloads these texts.
 */
const HINTS: Record<number, string> = {
  400: 'Fix the request: the message names the failing property.',
  401: 'Check the apiKey option (or CUSTOMERS_API_KEY): create or rotate keys in the dashboard under Settings, then API Keys.',
  403: "The subscription plan's customer limit is reached: delete customers you no longer need or upgrade the plan.",
  404: 'Check the customer id: deleted customers and customers of other seller accounts are not found.',
  409: 'Use another email address, or update the customer that already has it.',
  413: 'Request bodies are limited to 64 KiB.',
  415: 'Send the body as application/json (a proxy may have rewritten it).',
  429: 'Too many requests: slow down or raise maxRetries.',
};

/** The advice for a status: its own, else the one for any 5xx, else "Unexpected status N.". */
export function hintFor(status: number): string {
  return HINTS[status] ?? (status >= 500 ? 'The server failed; retrying later may help.' : `Unexpected status ${status}.`);
}
