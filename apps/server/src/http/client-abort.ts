import type { FastifyRequest } from 'fastify';

/**
 * Whether an error only says that the client went away before its request arrived whole (the connection closed
 * mid-body): nothing on the server failed, so it is no fault, and there is no one left to answer.
 *
 * @example
 * if (isClientAbort(error, request)) request.log.info('client aborted the request');
 */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const closed = request.raw.destroyed || request.raw.socket?.destroyed === true;
  return closed && (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED');
}
