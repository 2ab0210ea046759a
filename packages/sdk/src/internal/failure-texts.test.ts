import { describe, expect, it } from 'vitest';
import { failureText } from './failure-texts';

// The message of an attempt without a response, for each shape of what fetch rejected with.

const at = { method: 'GET', url: 'http://127.0.0.1:3000/api/customers', attempt: 2, attempts: 3, timeout: 5000 };

describe('failureText', () => {
  it('says a timeout with the attempt and the timeout, whatever the cause', () => {
    expect(failureText(true, at, new Error('aborted'))).toBe(
      'GET http://127.0.0.1:3000/api/customers timed out after 5000 ms (attempt 2 of 3). Raise the timeout option or check the server.',
    );
  });

  it("adds the cause's message when it says more, once when it says the same, and nothing for a cause that is no Error", () => {
    const text = (cause: unknown) => failureText(false, at, cause);
    const tail = '. Check baseUrl and the network.';
    const head = 'GET http://127.0.0.1:3000/api/customers failed without a response (attempt 2 of 3): ';
    expect(text(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED') }))).toBe(`${head}fetch failed (connect ECONNREFUSED)${tail}`);
    expect(text(new Error('socket hang up', { cause: new Error('socket hang up') }))).toBe(`${head}socket hang up${tail}`);
    expect(text(new Error('fetch failed', { cause: 'ECONNRESET' }))).toBe(`${head}fetch failed${tail}`);
    expect(text(new Error('fetch failed', { cause: new Error('') }))).toBe(`${head}fetch failed${tail}`);
    expect(text('offline')).toBe(`${head}offline${tail}`);
    expect(text(undefined)).toBe(`${head}undefined${tail}`);
  });
});
