import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from '@customers-api/core';

/**
 * Reads request bodies as bytes for core to judge (415, 413, 400 in core's order and words): at most one byte
 * more than the limit is kept, so an oversized body is never buffered whole. Bodies sent to anything that
 * takes none (GET, DELETE, unknown routes) are drained and ignored, whatever their type or size.
 */
export function registerBodyReader(app: FastifyInstance, limitBytes: number = BODY_LIMIT_BYTES): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    if (!request.routeOptions.config.operation?.readsBody) {
      payload.on('error', () => done(null, undefined));
      payload.on('end', () => done(null, undefined));
      payload.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = () => {
      payload.removeListener('data', onData);
      done(null, new Uint8Array(Buffer.concat(chunks)));
    };
    const onData = (chunk: Buffer) => {
      const room = limitBytes + 1 - received;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      received += Math.min(chunk.length, room);
      // One byte past the limit is all core needs to answer 413; the rest is never read.
      if (received > limitBytes) {
        payload.removeListener('end', finish);
        finish();
      }
    };
    payload.on('data', onData);
    payload.once('end', finish);
    payload.once('error', (error) => done(error, undefined));
  });
}
