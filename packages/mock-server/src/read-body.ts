import type { IncomingMessage } from 'node:http';

/** The client closed the connection before its body arrived: nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection before the request body arrived');
    this.name = 'ClientGoneError';
  }
}

/** What {@link readBody} got: the bytes (at most `limitBytes + 1`), and whether more were left unread. */
export interface BodyBytes {
  bytes: Uint8Array | null;
  truncated: boolean;
}

/**
 * A request body as bytes, keeping at most `limitBytes + 1` of them: one byte past the limit is enough for
 * core to answer 413, so an endless body is never buffered. Once past the limit the rest is left to Node,
 * which discards it after the response. Rejects with {@link ClientGoneError} when the client goes away mid-body.
 *
 * @example
 * const { bytes } = await readBody(request, BODY_LIMIT_BYTES); // null for an empty body
 */
export function readBody(request: IncomingMessage, limitBytes: number): Promise<BodyBytes> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (truncated: boolean) => {
      request.off('data', onData);
      const bytes = Buffer.concat(chunks, Math.min(size, limitBytes + 1));
      resolve({ bytes: bytes.byteLength === 0 ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), truncated });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > limitBytes) {
        request.pause();
        finish(true);
      }
    };
    request.on('data', onData);
    request.once('end', () => finish(false));
    request.once('error', () => reject(new ClientGoneError()));
    request.once('aborted', () => reject(new ClientGoneError()));
  });
}
