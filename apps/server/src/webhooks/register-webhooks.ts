import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { keyMismatch } from './endpoints.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker.js';
import type { SecretBox } from './secret-box.js';
import { runDetached } from '../observability/trace-context.js';

/** What buildApp needs to deliver webhooks: the key and the worker's settings (see DeliveryWorkerOptions). */
export type WebhookSettings = Omit<DeliveryWorkerOptions, 'database' | 'logger'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook delivery worker, when the app delivers (buildApp's `webhooks` option). */
    webhookWorker?: DeliveryWorker;
  }
}

/**
 * Runs a delivery worker with the app: started when the app is ready, nudged after every successful write
 * request (so this process's changes go out at once instead of at the next poll), stopped on close before the
 * caller closes the database.
 */
export function registerWebhookDelivery(app: FastifyInstance, database: DatabaseHandle, settings: WebhookSettings): DeliveryWorker {
  const worker = new DeliveryWorker({ ...settings, database, logger: app.log });
  app.decorate('webhookWorker', worker);
  app.addHook('onReady', async () => worker.start());
  // A callback hook: an async one costs a promise and a microtask per request.
  app.addHook('onResponse', (request, reply, done) => {
    // Outside the request's trace: the worker's statements are its own, not spans of a request already answered.
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 300) runDetached(() => worker.nudge());
    done();
  });
  app.addHook('onClose', async () => worker.stop());
  return worker;
}

/**
 * Refuses to run with a key that cannot open the endpoint secrets already stored (another process's key): the
 * endpoints would never be delivered to. Every process must have the same key.
 */
export async function assertSecretKeyMatches(database: DatabaseHandle, box: SecretBox): Promise<void> {
  const other = await otherSecretKeyId(database, box);
  if (other !== undefined) throw new Error(keyMismatch(other, box.keyId));
}

/**
 * The key id of an endpoint whose secret `box` cannot open (sealed by another key: the CLI or another process read
 * a different key file after this one started), or undefined when this key opens them all.
 */
export async function otherSecretKeyId(database: DatabaseHandle, box: SecretBox): Promise<string | undefined> {
  const other = await database.db
    .selectFrom('webhook_endpoints')
    .select('secret_key_id')
    .where('secret_key_id', '!=', box.keyId)
    .limit(1)
    .executeTakeFirst();
  return other?.secret_key_id;
}
