import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../db/database-unavailable.js';
import { DATABASE_RETRY_AFTER_SECONDS, toHttpError } from './to-api-error.js';

const request = { headers: {} } as FastifyRequest;

describe('toHttpError', () => {
  it('answers a database that does not answer with 503, Retry-After and the usual body: a condition, not a fault', () => {
    const { apiError, fault } = toHttpError(new DatabaseUnavailableError('shutting_down'), request);
    expect(fault).toBe(false);
    expect(apiError.status).toBe(503);
    expect(apiError.headers).toMatchObject({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    expect(apiError.toBody()).toEqual({ error: 'Service Unavailable', message: 'Not ready: the database does not answer' });
  });

  it('keeps any other error a generic 500 fault', () => {
    const { apiError, fault } = toHttpError(Object.assign(new Error('boom'), { code: '42P01' }), request);
    expect([apiError.status, fault]).toEqual([500, true]);
  });
});
