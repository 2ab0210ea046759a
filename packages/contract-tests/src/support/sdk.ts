import { CustomersApiError, CustomersClient } from '@customers-api/sdk';
import type { Target } from '../targets/target.js';

/** The SDK aimed at a target, every response passing through the target's checked fetch. */
export function sdkFor(target: Target, apiKey: string, maxRetries = 0): CustomersClient {
  return new CustomersClient({ apiKey, baseUrl: target.baseUrl, fetch: target.fetch, maxRetries, timeout: 30_000 });
}

export interface Outcome<T = any> {
  status: number;
  body: T;
}

/** Status and body of an SDK call, whether it resolved or threw an API error. */
export async function outcome<T>(call: { withResponse(): Promise<{ data: T; response: Response }> }): Promise<Outcome> {
  try {
    const { data, response } = await call.withResponse();
    return { status: response.status, body: data ?? null };
  } catch (error) {
    if (error instanceof CustomersApiError) return { status: error.status ?? 0, body: error.body };
    throw error;
  }
}
