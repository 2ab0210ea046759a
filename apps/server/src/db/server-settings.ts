import { sql, type Kysely } from 'kysely';
import { WAITING_DELIVERY_LIMIT } from '../webhooks/delivery-caps.js';

/** The server's defaults that its triggers read (migration 034's `server_settings`, one row). */
export interface ServerSettings {
  /** A seller's cap of waiting deliveries when `sellers.waiting_delivery_limit` is null (webhooks/delivery-caps.ts). */
  waitingDeliveryLimit: number;
}

/** What this build's constants say: written at every migrate, so the code is the one place a default lives. */
export const SERVER_SETTINGS: ServerSettings = { waitingDeliveryLimit: WAITING_DELIVERY_LIMIT };

/**
 * Writes the one settings row (insert or update: both databases), in the caller's transaction when given one.
 * migrateToLatest calls it after the migrations, so a build with another default applies it on its next start.
 *
 * @example
 * await writeServerSettings(handle.db); // this build's defaults
 */
export async function writeServerSettings(db: Kysely<any>, settings: ServerSettings = SERVER_SETTINGS): Promise<void> {
  await sql`insert into server_settings (id, waiting_delivery_limit) values (1, ${settings.waitingDeliveryLimit})
    on conflict (id) do update set waiting_delivery_limit = excluded.waiting_delivery_limit`.execute(db);
}
