import type { WebhookVerificationReason } from '../core/errors';

/** Why a webhook check failed; `invalid_option` is a bad option (thrown as a `ConfigurationError`). */
export type RefusalReason = WebhookVerificationReason | 'invalid_option';

/** What {@link checkWebhook} answers: the event, or why the request is refused. */
export type WebhookCheck =
  | { ok: true; event: import('./customer-event').CustomerEvent }
  | { ok: false; reason: RefusalReason; message: string; cause: unknown };

/**
 * A failed check, thrown inside the checks and answered by `checkWebhook` as a plain value. The checks import no
 * error class, so the verifier the client loads on first use shares no module with the client's bundle;
 * `eventOrThrow` (in the bundle) turns the value into the error.
 */
export class Refusal {
  readonly reason: RefusalReason;
  readonly message: string;
  readonly cause: unknown;

  constructor(reason: RefusalReason, message: string, cause?: unknown) {
    this.reason = reason;
    this.message = message;
    this.cause = cause;
  }
}
