import type { FastifyInstance } from 'fastify';
import { API_VERSION_HEADER, resolveApiVersion, type ApiVersioning, type VersionChange } from '@customers-api/core';
import { headerReader } from './header-reader.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The version changes between the caller's version and the latest; undefined at the latest. */
    versionChanges: readonly VersionChange[] | undefined;
  }
}

/**
 * Core's `Customers-Version` rule on every route of the scope it is registered in, before the API key (register it
 * before the auth hook): the answer carries the version applied, whatever it is, and a version core refuses is its
 * 400. Unknown paths and other methods are core's own answers, which carry it already. The request keeps the
 * changes its version needs, which the operation applies; a deprecated version's answers carry `Deprecation`,
 * `Sunset` and `Link`. At the latest version: one comparison, nothing more.
 */
export function registerApiVersion(app: FastifyInstance, now: () => Date, versioning: ApiVersioning): void {
  app.decorateRequest('versionChanges', undefined);
  // A callback hook, like the request id's: no promise per request for one header. Named: the bench finds the
  // version machinery's share of the server's CPU by this name in a V8 profile (packages/benchmarks).
  app.addHook('onRequest', function applyApiVersion(request, reply, done) {
    const { version, error } = resolveApiVersion(headerReader(request.headers), now, versioning.versions);
    reply.header(API_VERSION_HEADER, version);
    if (version !== versioning.latest) {
      request.versionChanges = versioning.changesFor(version);
      const deprecation = versioning.headersFor(version);
      if (deprecation) reply.headers(deprecation);
    }
    done(error);
  });
}
