import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderReader } from '@customers-api/core';

/** Core's HeaderReader over Node's header object (names are lower-case there; repeats are joined). */
export function headerReader(headers: IncomingHttpHeaders): HeaderReader {
  return (name) => {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
}
