import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';

/** GET /healthz: 200 when the process can reach its database (one trivial query), else a 500 fault. */
export function registerHealthRoutes(app: FastifyInstance, database: DatabaseHandle): void {
  app.get('/healthz', async () => {
    await sql`select 1`.execute(database.db);
    return { status: 'ok', database: database.dialect };
  });
}
