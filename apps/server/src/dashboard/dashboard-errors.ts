import { ApiError } from '@customers-api/core';

/** The dashboard's errors, in core's `{ error, message }` shape. */
export const dashboardErrors = {
  notSignedIn: () =>
    new ApiError(401, 'Sign in to the dashboard first: open a new sign-in link (ask the person who runs this service for one)'),
  apiKeyRefused: () =>
    new ApiError(401, 'The dashboard does not accept API keys; sign in with a login link instead'),
  crossOrigin: () =>
    new ApiError(403, 'Cross-origin request refused: dashboard changes must come from the dashboard itself'),
  keyNotFound: () => new ApiError(404, 'API key not found'),
  /** At the seller's cap on unexpired keys (key-limit.ts words it). */
  keyLimit: (message: string) => new ApiError(403, message),
  keyNotRollable: () => new ApiError(409, 'API key is revoked or expired; only an active key can be rolled'),
  webhookNotFound: () => new ApiError(404, 'Webhook endpoint not found'),
  requestLogNotFound: () => new ApiError(404, 'Request log not found'),
};
