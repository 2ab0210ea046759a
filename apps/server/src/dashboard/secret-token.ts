import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url (43 characters): login-link tokens and session ids. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a token: its SHA-256, hex. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether a value could be one of our tokens; anything else is refused without a database lookup. */
export function isSecretTokenShape(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_SHAPE.test(value);
}
