// The dashboard's one way to its API: openapi-fetch typed by the paths generated from openapi.dashboard.yaml
// (`pnpm generate`), so a renamed route, parameter or field fails the build instead of a page.

import createClient from 'openapi-fetch';
import type { components, paths } from './generated/dashboard-api.js';

export type Schemas = components['schemas'];
export type { paths };

/** Same-origin: the session cookie goes along, and nothing else is ever sent anywhere. */
export const client = createClient<paths>({ credentials: 'same-origin' });

/** Thrown after a 401: the page reloads into the signed-out page, so nothing more is shown. */
export class SignedOut extends Error {}

/**
 * A request the server refused: its message (naming the property), and `field`, the property or query parameter
 * it is about when the server names one (`Error.field` in openapi.dashboard.yaml), for a form to mark.
 */
export class RefusedError extends Error {
  constructor(message: string, readonly status: number, readonly field: string | undefined) {
    super(message);
    this.name = 'RefusedError';
  }
}

/** A 503 (the server's database does not answer): a plain sentence, not the server's reason. */
export const UNAVAILABLE_MESSAGE = 'The service is unavailable right now; try again in a moment.';

interface Result<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * The answer's data, or a {@link RefusedError} with the server's message and the `field` it names, if any.
 *
 * @example
 * const { keys } = await call(client.GET('/dashboard/api/keys'));
 */
export async function call<D>(request: Promise<Result<D>>): Promise<D> {
  const { data, error, response } = await request;
  if (response.status === 401) {
    // The page itself answers the signed-out page now: it says why and brings the seller back here after sign-in.
    window.location.reload();
    throw new SignedOut();
  }
  if (response.status === 503) throw new Error(UNAVAILABLE_MESSAGE);
  if (!response.ok) throw new RefusedError(messageOf(error) ?? `Request failed (${response.status})`, response.status, fieldOf(error));
  return data as D;
}

function messageOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  return undefined;
}

/** Path parameter `id` (the client encodes it). */
export const byId = (id: string) => ({ params: { path: { id } } });

function fieldOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'field' in error && typeof error.field === 'string') return error.field;
  return undefined;
}
