import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { customerEvent, isEventId } from '@customers-api/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadOpenApi } from '../openapi-document.js';
import { isTestEventCustomerId, testEventChange } from './test-event.js';

const spec = parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../../openapi.yaml'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'api', components: spec.components });

describe('testEventChange', () => {
  const sellerId = '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
  const now = new Date('2026-11-26T10:00:00.000Z');

  it("becomes a valid customer.updated of openapi.yaml: the seller's own id, now, status suspended, a test customer", () => {
    const event = customerEvent(testEventChange(sellerId, now));
    const validate = ajv.getSchema('api#/components/schemas/CustomerUpdatedEvent')!;
    expect(validate(event), ajv.errorsText(validate.errors)).toBe(true);
    expect(isEventId(event.id)).toBe(true);
    expect(event).toMatchObject({
      type: 'customer.updated',
      created_at: '2026-11-26T10:00:00.000Z',
      data: {
        customer: { seller_id: sellerId, first_name: 'Ada', status: 'suspended', updated_at: '2026-11-26T10:00:00.000Z' },
        changed_fields: ['status'],
        sequence: 1,
      },
    });
    expect(event.type === 'customer.updated' && event.data.customer.id).toMatch(/^00000000-0000-4000-8000-[0-9a-f]{12}$/);
  });

  it('gets its own event id and customer each time; the spec example it is built from stays untouched', () => {
    const first = testEventChange(sellerId, now);
    const second = testEventChange(sellerId, now);
    expect(first.eventId).not.toBe(second.eventId);
    expect(first.customerId).not.toBe(second.customerId);
    expect([first.customerId, second.customerId].every(isTestEventCustomerId)).toBe(true);
    expect(isTestEventCustomerId(spec.components.examples.CustomerUpdatedEventSuspended.value.data.customer.id)).toBe(false);
    const loaded = (loadOpenApi().document.components as any).examples.CustomerUpdatedEventSuspended.value;
    expect(loaded).toEqual(spec.components.examples.CustomerUpdatedEventSuspended.value);
    expect(testEventChange(sellerId, now, 'evt_00000000000000000000000000000001').eventId).toBe('evt_00000000000000000000000000000001');
  });

  it.each([
    ['customer.created', 'CustomerCreatedEvent'],
    ['customer.updated', 'CustomerUpdatedEvent'],
    ['customer.deleted', 'CustomerDeletedEvent'],
  ] as const)('of a chosen type (%s) is a valid event of that type about a test customer', (type, schema) => {
    const event = customerEvent(testEventChange(sellerId, now, undefined, type));
    const validate = ajv.getSchema(`api#/components/schemas/${schema}`)!;
    expect(validate(event), ajv.errorsText(validate.errors)).toBe(true);
    expect(event.type).toBe(type);
    expect(isTestEventCustomerId(event.data.customer.id)).toBe(true);
    expect(event.data.customer.seller_id).toBe(sellerId);
  });
});
