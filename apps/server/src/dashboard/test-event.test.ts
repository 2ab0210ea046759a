import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isEventId } from '@customers-api/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadOpenApi } from '../openapi-document.js';
import { TEST_EVENT_CUSTOMER_ID, testWebhookEvent } from './test-event.js';

const spec = parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../../openapi.yaml'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'api', components: spec.components });

describe('testWebhookEvent', () => {
  const sellerId = '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
  const now = new Date('2026-11-26T10:00:00.000Z');

  it("is a valid customer.updated of openapi.yaml, for the seller's own id, now, about the test customer", () => {
    const event = testWebhookEvent(sellerId, now);
    const validate = ajv.getSchema('api#/components/schemas/CustomerUpdatedEvent')!;
    expect(validate(event), ajv.errorsText(validate.errors)).toBe(true);
    expect(isEventId(event.id)).toBe(true);
    expect(event).toMatchObject({
      type: 'customer.updated',
      created_at: '2026-11-26T10:00:00.000Z',
      data: {
        customer: { id: TEST_EVENT_CUSTOMER_ID, seller_id: sellerId, status: 'suspended', updated_at: '2026-11-26T10:00:00.000Z' },
        changed_fields: ['status'],
        sequence: 1,
      },
    });
  });

  it('gets a new event id each time, and the spec example it is built from stays untouched', () => {
    const first = testWebhookEvent(sellerId, now);
    const second = testWebhookEvent('9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', now);
    expect(first.id).not.toBe(second.id);
    expect(first.data.customer.seller_id).toBe(sellerId);
    const loaded = (loadOpenApi().document.components as any).examples.CustomerUpdatedEventSuspended.value;
    expect(loaded).toEqual(spec.components.examples.CustomerUpdatedEventSuspended.value);
    expect(testWebhookEvent(sellerId, now, 'evt_00000000000000000000000000000001').id).toBe('evt_00000000000000000000000000000001');
  });
});
