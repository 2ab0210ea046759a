import { errors } from '@customers-api/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { LATEST_MIGRATION } from '../db/migrations.js';
import { sendApiError } from './send-error.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { otherSecretKeyId } from '../webhooks/register-webhooks.js';

/** A check that has not answered by then counts as failed: a probe must not hang with a hanging database. */
const CHECK_TIMEOUT_MS = 2_000;

export interface HealthDeps {
  database: DatabaseHandle;
  /** The rate limiter's Redis, when configured: reported when it does not answer, never a reason to refuse traffic. */
  redis?: Redis | undefined;
  /** The key that opens endpoint secrets, when this process delivers webhooks. */
  webhookKey?: SecretBox | undefined;
}

/**
 * What serves traffic but not fully: `redis` (the rate limiter's Redis does not answer: limits are counted per
 * process) and `webhook_key` (an endpoint's secret was sealed by another key than this process's: its events wait
 * until the processes share one key file). /readyz stays 200 and names them.
 */
export type DegradedDependency = 'redis' | 'webhook_key';

/**
 * GET /healthz: liveness only (the process answers HTTP; no database query, so a database outage never gets every
 * process restarted). GET /readyz: "send me traffic". 200 when this process should get traffic, else 503 naming
 * why: shutdown has begun, the database does not answer, or its schema is behind this version (migrations still
 * running). A dependency that fails open (the rate limiter's Redis: limits are then counted per process) does not
 * refuse traffic: a 200 names it in `degraded`, since behind a load balancer a Redis blip would otherwise be a full
 * outage. Both are described in openapi.operator.yaml.
 */
export function registerHealthRoutes(app: FastifyInstance, { database, redis, webhookKey }: HealthDeps): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.get('/healthz', async () => ({ status: 'ok', database: database.dialect }));

  app.get('/readyz', async (_request, reply) => {
    const problem = closing || app.draining ? 'shutting down' : await firstProblem(database);
    if (problem) return sendApiError(reply, errors.serviceUnavailable(problem));
    const degraded = await degradedDependencies(database, redis, webhookKey);
    return degraded.length === 0 ? { status: 'ready' } : { status: 'ready', degraded };
  });
}

async function degradedDependencies(database: DatabaseHandle, redis: Redis | undefined, webhookKey: SecretBox | undefined): Promise<DegradedDependency[]> {
  const degraded: DegradedDependency[] = [];
  // Not connected (refused, reconnecting) is known at once; a connected one must still answer a PING in time.
  if (redis && !(redis.status === 'ready' && (await withTimeout(redis.ping())) === 'PONG')) degraded.push('redis');
  if (webhookKey && (await withTimeout(otherSecretKeyId(database, webhookKey).then((other) => other === undefined))) === false) {
    degraded.push('webhook_key');
  }
  return degraded;
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
