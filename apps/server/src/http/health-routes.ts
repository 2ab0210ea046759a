import { errors } from '@customers-api/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { LATEST_MIGRATION } from '../db/migrations.js';
import { sendApiError } from './send-error.js';

/** A check that has not answered by then counts as failed: a probe must not hang with a hanging database. */
const CHECK_TIMEOUT_MS = 2_000;

export interface HealthDeps {
  database: DatabaseHandle;
  /** The rate limiter's Redis, when configured: reported when it does not answer, never a reason to refuse traffic. */
  redis?: Redis | undefined;
}

/** Dependencies that fail open: while one does not answer the process still serves, and /readyz names it. */
export type DegradedDependency = 'redis';

/**
 * GET /healthz: liveness only (the process answers HTTP; no database query, so a database outage never gets every
 * process restarted). GET /readyz: "send me traffic". 200 when this process should get traffic, else 503 naming
 * why: shutdown has begun, the database does not answer, or its schema is behind this version (migrations still
 * running). A dependency that fails open (the rate limiter's Redis: limits are then counted per process) does not
 * refuse traffic: a 200 names it in `degraded`, since behind a load balancer a Redis blip would otherwise be a full
 * outage. Both are described in openapi.operator.yaml.
 */
export function registerHealthRoutes(app: FastifyInstance, { database, redis }: HealthDeps): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.get('/healthz', async () => ({ status: 'ok', database: database.dialect }));

  app.get('/readyz', async (_request, reply) => {
    const problem = closing || app.draining ? 'shutting down' : await firstProblem(database);
    if (problem) return sendApiError(reply, errors.serviceUnavailable(problem));
    const degraded = await degradedDependencies(redis);
    return degraded.length === 0 ? { status: 'ready' } : { status: 'ready', degraded };
  });
}

async function degradedDependencies(redis: Redis | undefined): Promise<DegradedDependency[]> {
  if (!redis) return [];
  // Not connected (refused, reconnecting) is known at once; a connected one must still answer a PING in time.
  const answers = redis.status === 'ready' && (await withTimeout(redis.ping())) === 'PONG';
  return answers ? [] : ['redis'];
}

async function firstProblem(database: DatabaseHandle): Promise<string | undefined> {
  const schema = await withTimeout(latestMigration(database));
  if (schema === undefined) {
    const reachable = await withTimeout(sql`select 1`.execute(database.db).then(() => true));
    return reachable ? 'the database has not been migrated yet' : 'the database does not answer';
  }
  if (schema < LATEST_MIGRATION) return `database migrations are running (schema at ${schema}, this version needs ${LATEST_MIGRATION})`;
  return undefined;
}

async function latestMigration(database: DatabaseHandle): Promise<string> {
  const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(database.db);
  return rows[0]?.name ?? '';
}

/** The check's value, or undefined when it failed or took longer than CHECK_TIMEOUT_MS. */
async function withTimeout<T>(check: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, CHECK_TIMEOUT_MS, undefined);
  });
  try {
    return await Promise.race([check.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
