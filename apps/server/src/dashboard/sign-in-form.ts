import type { FastifyError, FastifyInstance } from 'fastify';
import { errors } from '@customers-api/core';
import { handleError } from '../http/error-handling.js';
import { sendApiError } from '../http/send-error.js';

/** The sign-in forms carry at most a seller id; anything longer is not ours. */
export const SIGN_IN_FORM_LIMIT_BYTES = 1024;

/**
 * Reads the sign-in forms (`application/x-www-form-urlencoded`) of this scope into a plain object, and answers
 * one over the limit with 413 like any other oversized body (the app-wide mapping would call a non-JSON type 415).
 */
export function registerSignInForm(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: SIGN_IN_FORM_LIMIT_BYTES },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.setErrorHandler((error: FastifyError, request, reply) =>
    error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? sendApiError(reply, errors.payloadTooLarge(SIGN_IN_FORM_LIMIT_BYTES))
      : handleError(error, request, reply),
  );
}

/** A field of a sign-in form, or undefined (any other body: none, JSON, a repeated field). */
export function formField(body: unknown, name: string): string | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}
