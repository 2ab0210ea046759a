import { expect, it } from 'vitest';
import { InternalServerError, NotFoundError } from '../core/errors';
import { errorFromResponse } from './error-from-response';
import { describeError } from './error-hints';
import { requestIdOf } from './headers';

/** The error the client builds for this response, with the message the lazily loaded module makes. */
function errorOf(status: number, parsed: unknown, headers: Headers) {
  const requestId = requestIdOf(headers);
  return errorFromResponse(status, headers, requestId, describeError(status, parsed, requestId));
}

it('copes with a JSON null error body: the body is the text "null", not a crash', () => {
  const err = errorOf(404, null, new Headers());
  expect(err).toBeInstanceOf(NotFoundError);
  expect(err.body).toBe('null');
  expect(err.error).toBeUndefined();
  expect(err.message).toMatch(/^404: null\. No such route: check the baseUrl option/);
});

it("quotes at most 200 characters of a proxy's HTML page in the message, and keeps the whole page as body", () => {
  const page = `<html>${'x'.repeat(300)}</html>`;
  const err = errorOf(502, page, new Headers({ 'x-request-id': 'req_9' }));
  expect(err).toBeInstanceOf(InternalServerError);
  expect(err.body).toBe(page);
  expect(err.message).toBe(
    `502: ${page.slice(0, 200)}. The server failed; retrying later may help. (request id req_9; quote it when reporting a problem)`,
  );
});

it('keeps a JSON body whose error or message is not a string as its text: only the API error shape is read', () => {
  for (const parsed of [{ error: 404, message: 'Customer not found' }, { error: 'Not Found', message: 404 }]) {
    const err = errorOf(404, parsed, new Headers());
    expect(err.body).toBe(JSON.stringify(parsed));
    expect(err.error).toBeUndefined();
    expect(err.apiMessage).toBeUndefined();
  }
});
