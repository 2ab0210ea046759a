import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { newTestSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { endpointHealthReport, FAILING_AFTER_ATTEMPTS } from './endpoint-health-report.js';

describe.each(DIALECTS)('endpoint health on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  const now = new Date('2026-11-26T12:00:00.000Z');
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

  /** An endpoint with one delivery, and attempts of it with these statuses at these times (oldest first). */
  async function endpointWith(attempts: [status: number | null, at: string][], failingSince: string | null = null) {
    const sellerId = await newTestSeller(database.handle);
    const endpointId = await subscribeTestEndpoint(database.handle, sellerId);
    const { db } = database.handle;
    const change = await db
      .insertInto('customer_changes')
      .values({ event_id: `evt_${crypto.randomUUID().replaceAll('-', '')}`, type: 'customer.created', seller_id: sellerId, customer_id: crypto.randomUUID(), sequence: 1, occurred_at: minutesAgo(600), customer: '{}', previous: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const delivery = await db
      .insertInto('webhook_deliveries')
      .values({ change_id: change.id, endpoint_id: endpointId, seller_id: sellerId, customer_id: crypto.randomUUID(), sequence: 1, attempts: attempts.length, next_attempt_at: minutesAgo(-7), created_at: minutesAgo(600) })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [index, [status, at]] of attempts.entries()) {
      await db
        .insertInto('webhook_delivery_attempts')
        .values({ delivery_id: delivery.id, endpoint_id: endpointId, attempt: index + 1, attempted_at: at, duration_ms: 5, status_code: status, error: status === null ? 'refused' : null, response_body: null, signature: 'v1,x' })
        .execute();
    }
    await db.updateTable('webhook_endpoints').set({ attempts_failing_since: failingSince }).where('id', '=', endpointId).execute();
    return endpointId;
  }

  it(`is failing as soon as the last ${FAILING_AFTER_ATTEMPTS} attempts failed, with the next retry and the last success`, async () => {
    const four = await endpointWith([[204, minutesAgo(30)], [500, minutesAgo(5)], [null, minutesAgo(4)], [500, minutesAgo(3)], [500, minutesAgo(2)]], minutesAgo(5));
    expect(await endpointHealthReport(database.handle, four, now)).toEqual({ health: 'healthy', last_succeeded_at: minutesAgo(30), next_retry_at: minutesAgo(-7) });
    const five = await endpointWith([[204, minutesAgo(30)], [500, minutesAgo(6)], [500, minutesAgo(5)], [null, minutesAgo(4)], [500, minutesAgo(3)], [500, minutesAgo(2)]], minutesAgo(6));
    expect(await endpointHealthReport(database.handle, five, now)).toEqual({ health: 'failing', last_succeeded_at: minutesAgo(30), next_retry_at: minutesAgo(-7) });
  });

  it('is failing after an hour of failures without a success, healthy again after one success, disabled when disabled', async () => {
    const slow = await endpointWith([[500, minutesAgo(61)], [500, minutesAgo(20)]], minutesAgo(61));
    expect((await endpointHealthReport(database.handle, slow, now)).health).toBe('failing');
    expect((await endpointHealthReport(database.handle, slow, now)).last_succeeded_at).toBeNull();
    const recovered = await endpointWith([[500, minutesAgo(9)], [500, minutesAgo(8)], [500, minutesAgo(7)], [500, minutesAgo(6)], [500, minutesAgo(5)], [200, minutesAgo(1)]]);
    expect(await endpointHealthReport(database.handle, recovered, now)).toMatchObject({ health: 'healthy', last_succeeded_at: minutesAgo(1) });
    await database.handle.db.updateTable('webhook_endpoints').set({ disabled_at: minutesAgo(0) }).where('id', '=', recovered).execute();
    expect((await endpointHealthReport(database.handle, recovered, now)).health).toBe('disabled');
    const fresh = await subscribeTestEndpoint(database.handle, await newTestSeller(database.handle));
    expect(await endpointHealthReport(database.handle, fresh, now)).toEqual({ health: 'healthy', last_succeeded_at: null, next_retry_at: null });
  });
});
