import {
  errors,
  FORCED_STATUSES,
  pathFor,
  apiVersionHeaders,
  resolveRequestId,
  type ApiResponse,
  type ForcedResponse,
  type ForcedStatus,
  type HeaderReader,
  type OperationId,
} from '@customers-api/core';
import type { SpecExamples } from './spec-examples.js';

/** Prism's `Prefer` header: `code=NNN`, `example=NAME`, or both (`Prefer: code=404, example=notFound`). */
export interface Preference {
  code?: number;
  example?: string;
}

/**
 * The `code` and `example` of a `Prefer` header; other preferences (`dynamic=true`, RFC 7240's
 * `return=minimal`) are ignored. Undefined when the header asks for neither; a 400 `ApiError` for a code
 * that is not 3 digits.
 *
 * @example
 * parsePrefer('code=503, example=x'); // { code: 503, example: 'x' }
 */
export function parsePrefer(header: string | null | undefined): Preference | undefined {
  const preference: Preference = {};
  for (const token of (header ?? '').split(/[,;]/)) {
    const [name, ...rest] = token.split('=');
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (name?.trim().toLowerCase() === 'code') {
      if (!/^\d{3}$/.test(value)) throw errors.badRequest(`Prefer: code=${value} must be a 3-digit HTTP status`);
      preference.code = Number(value);
    }
    if (name?.trim().toLowerCase() === 'example') preference.example = value;
  }
  return preference.code === undefined && preference.example === undefined ? undefined : preference;
}

/** What a preference asks for: a forced error (worded as the server words it), or a documented example as is. */
export type PreferredAnswer = { forced: ForcedResponse } | { response: ApiResponse };

/**
 * Resolves a preference against openapi.yaml's examples of the operation. An error status is forced (core's
 * wording, or the example's message), a success status answers the example (the first one, without a name);
 * anything the operation does not document is a 400 `ApiError` naming what it does.
 *
 * @example
 * preferredAnswer('getCustomer', { code: 404 }, examples, header); // { forced: { status: 404 } }
 * preferredAnswer('getCustomer', { example: 'found' }, examples, header); // { response: { status: 200, ... } }
 */
export function preferredAnswer(
  operation: OperationId,
  preference: Preference,
  examples: SpecExamples,
  header: HeaderReader,
): PreferredAnswer {
  const { code, example: name } = preference;
  const documented = examples.get(operation) ?? [];
  const isForced = (status: number): status is ForcedStatus => FORCED_STATUSES.includes(status as ForcedStatus);
  if (name === undefined && code !== undefined && isForced(code)) return { forced: { status: code } };

  const example = documented.find((e) => (name === undefined || e.name === name) && (code === undefined || e.status === code));
  if (!example) {
    const wanted = `Prefer: ${[code !== undefined && `code=${code}`, name !== undefined && `example=${name}`].filter(Boolean).join(', ')}`;
    const names = documented.filter((e) => code === undefined || e.status === code).map((e) => e.name);
    const statuses = [...new Set([...documented.map((e) => e.status), ...FORCED_STATUSES])].sort((a, b) => a - b);
    throw errors.badRequest(
      name === undefined
        ? `${wanted} cannot be answered for ${operation}; use one of the codes ${statuses.join(', ')}`
        : `${wanted} is not an example of ${operation}; use one of ${names.join(', ') || '(none with that code)'}`,
    );
  }
  if (isForced(example.status)) {
    return { forced: { status: example.status, message: (example.value as { message: string }).message } };
  }
  const body = example.value;
  const id = (body as { id?: string } | undefined)?.id;
  return {
    response: {
      status: example.status,
      headers: {
        'X-Request-Id': resolveRequestId(header),
        ...apiVersionHeaders(header),
        ...(example.status === 201 && id && { Location: pathFor('getCustomer', { id }) }),
      },
      body,
    },
  };
}
