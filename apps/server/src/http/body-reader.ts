import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from '@customers-api/core';

/**
 * Reads request bodies as bytes for core to judge (415, 413, 400 in core's order and words). Bodies sent to
 * anything that takes none (GET, DELETE, unknown routes) are drained and ignored, whatever their type or size.
 */
export function registerBodyReader(app: FastifyInstance, limitBytes: number = BODY_LIMIT_BYTES): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    if (!request.routeOptions.config.operation?.readsBody) {
      payload.once('error', (error) => done(error, undefined));
      payload.once('end', () => done(null, undefined));
      payload.resume();
      return;
    }
    readBodyBytes(payload, limitBytes).then((bytes) => done(null, bytes), (error: Error) => done(error, undefined));
  });
}

/**
 * A body's bytes, keeping at most one byte more than the limit: that is all core needs to answer 413, so an
 * oversized body is never buffered whole (the rest is discarded as it arrives).
 *
 * @example
 * const bytes = await readBodyBytes(request.raw, 65_536); // 65,537 bytes at most
 */
export function readBodyBytes(stream: Readable, limitBytes: number = BODY_LIMIT_BYTES): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    // A Buffer is a Uint8Array: the bytes go to core as they are, copied only to join several chunks.
    const bytes = (): Uint8Array => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, kept));
    stream.on('data', (chunk: Buffer) => {
      const room = limitBytes + 1 - kept;
      if (room <= 0) return;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      kept += Math.min(chunk.length, room);
      if (kept > limitBytes) resolve(bytes());
    });
    stream.once('end', () => resolve(bytes()));
    stream.once('error', reject);
  });
}
