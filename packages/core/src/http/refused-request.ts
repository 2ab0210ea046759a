import { ApiError, REASON_PHRASES } from '../errors/api-error.js';
import { errors } from '../errors/registry.js';
import { API_VERSION_HEADER, LATEST_API_VERSION } from '../versions/api-version.js';
import { errorHeaders } from './api-handler.js';

/** An error answer written by a host outside its framework, as the bytes of an HTTP/1.1 response and their parts. */
export interface RefusedRequestAnswer {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
  /** The whole response, status line included, for a host that writes to the socket itself. */
  raw: string;
}

/**
 * The error for a request a host's HTTP parser refused before any request existed, by the parser's error code
 * (Node's llhttp codes; core only compares strings): headers over the limit are 431, a request that did not
 * arrive in time 408, anything else that is not HTTP 400.
 *
 * @example
 * parserRefusal('HPE_HEADER_OVERFLOW').status; // 431
 */
export function parserRefusal(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return errors.headersTooLarge();
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return errors.requestTimeout();
  return errors.badRequest('The request is not valid HTTP');
}

/**
 * The refusal of an HTTP/1.1 request that carries no Host header, which RFC 9112 (section 3.2) says a server must
 * answer with 400, or `undefined` when the request may proceed (it has a Host, or it is HTTP/1.0, which needs none).
 * Hosts create their Node servers with `requireHostHeader: false` and ask this instead: Node's own refusal is an
 * empty 400 without the request id or the API's headers.
 *
 * @example
 * missingHostRefusal('1.1', undefined)?.status; // 400
 */
export function missingHostRefusal(httpVersion: string, host: string | undefined): ApiError | undefined {
  if (host !== undefined || httpVersion !== '1.1') return undefined;
  return errors.badRequest('An HTTP/1.1 request must carry a Host header');
}

/**
 * The answer to a request refused before routing (what the HTTP parser refused, an HTTP/1.1 request without
 * Host): `{ error, message }` with every header an error answer carries (JSON, no-store), the request id, the
 * latest `Customers-Version` (the request's own headers were not read) and `Connection: close`.
 *
 * @example
 * socket.end(refusedRequestAnswer(parserRefusal(error.code), requestId).raw);
 */
export function refusedRequestAnswer(error: ApiError, requestId: string): RefusedRequestAnswer {
  const body = JSON.stringify(error.toBody());
  const reason = REASON_PHRASES[error.status];
  const headers = {
    ...errorHeaders(error.headers),
    'Content-Length': String(new TextEncoder().encode(body).length),
    'X-Request-Id': requestId,
    [API_VERSION_HEADER]: LATEST_API_VERSION,
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return { status: error.status, reason, headers, body, raw: `HTTP/1.1 ${error.status} ${reason}\r\n${head}\r\n${body}` };
}
