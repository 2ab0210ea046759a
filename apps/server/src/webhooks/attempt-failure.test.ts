import { describe, expect, it } from 'vitest';
import { describeAttemptFailure, timedOutMessage } from './attempt-failure.js';

const failure = (code: string | undefined, message = `connect ${code ?? 'x'} 10.0.0.1:443`) => Object.assign(new Error(message), { code });

describe('describeAttemptFailure', () => {
  it.each([
    ['ECONNREFUSED', 'Connection refused'],
    ['ENOTFOUND', 'DNS lookup failed: no such host'],
    ['EAI_AGAIN', 'DNS lookup failed (temporary failure; will retry)'],
    ['EPRIVATEADDRESS', 'Resolves only to non-public addresses'],
    ['ECONNRESET', 'Connection reset by the receiver'],
    ['CERT_HAS_EXPIRED', 'TLS certificate has expired'],
    ['HPE_INVALID_CONSTANT', 'Invalid HTTP response (HPE_INVALID_CONSTANT)'],
    ['ERR_TLS_HANDSHAKE_TIMEOUT', 'TLS failed (ERR_TLS_HANDSHAKE_TIMEOUT)'],
    ['EWHATEVER', 'Request failed (EWHATEVER)'],
    [undefined, 'Request failed'],
  ])('says %s as "%s", never with the raw message and its addresses', (code, plain) => {
    const text = describeAttemptFailure(failure(code));
    expect(text).toBe(plain);
    expect(text).not.toContain('10.0.0.1');
  });
});

describe('timedOutMessage', () => {
  it('counts whole seconds in seconds, anything else in milliseconds', () => {
    expect(timedOutMessage(10_000)).toBe('Timed out after 10 s');
    expect(timedOutMessage(150)).toBe('Timed out after 150 ms');
    expect(timedOutMessage(1500)).toBe('Timed out after 1500 ms');
  });
});
