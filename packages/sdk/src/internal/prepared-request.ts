/**
 * What openapi-fetch builds for each call in place of a WHATWG `Request` (its documented `Request` option).
 * A real `Request` parses the URL, copies the headers and wraps the body in a stream, and `fetch(request)` then
 * does it all again; the SDK only needs the parts it hands to `fetch(url, init)`. On loopback this was about a
 * tenth of a call's time (BENCHMARKS.md).
 */
export class PreparedRequest {
  declare readonly url: string;
  declare readonly method: string;
  declare readonly headers: Headers;
  declare readonly body: BodyInit | null | undefined;

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.method = init.method ?? 'GET';
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body;
  }
}
