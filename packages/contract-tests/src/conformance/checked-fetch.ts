import type { ResponseValidator } from './response-validator.js';

export interface ConformanceLog {
  /** `${operationId} ${status}` for every response seen. */
  seen: Set<string>;
  violations: string[];
}

export const createConformanceLog = (): ConformanceLog => ({ seen: new Set(), violations: [] });

/**
 * Wraps `fetch` so that every response is validated against openapi.yaml and recorded. The response handed back
 * is an unread clone, so callers (the SDK, raw tests) see exactly what the server sent.
 */
export function checkedFetch(validator: ResponseValidator, log: ConformanceLog, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await inner(request.clone());
    const body = await response.clone().text();
    const verdict = validator.validate({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      headers: response.headers,
      body,
    });
    if (verdict.operationId) log.seen.add(`${verdict.operationId} ${response.status}`);
    log.violations.push(...verdict.violations);
    return response;
  };
}
