import { expect, it, vi } from 'vitest';

// The failure chunk is preloaded for every test file (test/helpers/preload-lazy-modules.ts), so its module-level
// tables are built before any test runs. This test loads a fresh copy inside the test and reads every table entry
// as a caller meets it: each status's advice, the no-route advice, and every header kept from a log line.

it('a fresh copy of the failure chunk gives every status its advice and redacts every secret header', async () => {
  vi.resetModules();
  const { hintFor, describeError, redactHeaders } = await import('./error-hints');
  expect([400, 401, 403, 404, 409, 413, 415, 429].map(hintFor)).toEqual([
    'Fix the request: the message names the failing property.',
    'Check the apiKey option (or CUSTOMERS_API_KEY): create or rotate keys in the dashboard under Settings, then API Keys.',
    "The subscription plan's customer limit is reached: delete customers you no longer need or upgrade the plan.",
    'Check the customer id: deleted customers and customers of other seller accounts are not found.',
    'Use another email address, or update the customer that already has it.',
    'Request bodies are limited to 64 KiB.',
    'Send the body as application/json (a proxy may have rewritten it).',
    'Too many requests: slow down or raise maxRetries.',
  ]);
  expect(describeError(404, '', undefined).message).toBe(
    '404: no details. No such route: check the baseUrl option (or CUSTOMERS_API_BASE_URL); it is the origin (and any prefix) before /api/customers.',
  );
  const headers = new Headers({
    'X-Api-Key': 'sk_live_x',
    Authorization: 'Bearer x',
    Cookie: 'a=b',
    'Set-Cookie': 'c=d',
    'Proxy-Authorization': 'Basic x',
    'X-Request-Id': 'req_1',
  });
  expect(redactHeaders(headers)).toEqual({
    'x-api-key': '[redacted]',
    authorization: '[redacted]',
    cookie: '[redacted]',
    'set-cookie': '[redacted]',
    'proxy-authorization': '[redacted]',
    'x-request-id': 'req_1',
  });
});
