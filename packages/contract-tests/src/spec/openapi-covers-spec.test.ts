import { describe, expect, it } from 'vitest';
import { deref, loadOpenApi, loadSpecMarkdown, type Schema } from './load-documents.js';
import { codeValues, tablesUnder } from './markdown-tables.js';

// Reads the tables and endpoint lists of SPEC.md and checks that openapi.yaml states each rule as schema.
const doc = loadOpenApi();
const spec = loadSpecMarkdown();
const schemas = doc.components.schemas as Record<string, Schema>;
const customer = schemas.Customer!;
const create = schemas.CustomerCreate!;
const update = schemas.CustomerUpdate!;

/** Every subschema reachable through $ref / anyOf / allOf / oneOf, the node itself included. */
function flatten(node: Schema | undefined): Schema[] {
  const resolved = deref<Schema>(doc, node);
  if (!resolved) return [];
  const nested = ['anyOf', 'allOf', 'oneOf'].flatMap((key) => (resolved[key] ?? []).flatMap(flatten));
  return [resolved, ...nested];
}
const types = (node: Schema): string[] => flatten(node).flatMap((s) => [s.type ?? []].flat() as string[]);
const maxLength = (node: Schema) => flatten(node).find((s) => s.maxLength !== undefined)?.maxLength;
const enumValues = (node: Schema) => flatten(node).flatMap((s) => s.enum ?? []);
const formatOf = (node: Schema) => flatten(node).find((s) => s.format)?.format;
/** What SPEC.md says today; a change here is a change of the spec, or of its wording the checks depend on. */
const RULE_COUNTS = { nullable: 5, serverAssigned: 5, requiredOnCreate: 3, maxLength: 4, allowed: 2, defaultOnCreate: 2, uuid: 2, dateTime: 2, email: 1, object: 2 };
const ADDRESS_ROWS = 4;
const ERROR_ROWS = 6;
const fieldName = (row: Record<string, string>) => codeValues(row.Field ?? row.Property ?? '')[0] ?? (row.Field ?? row.Property ?? '');

describe('SPEC.md §2 Customer fields', () => {
  const [table] = tablesUnder(spec, '### Customer');
  const rows: Array<Record<string, string> & { name: string }> = (table ?? []).map((row) => ({ ...row, name: fieldName(row) }));

  it('lists the fields the test expects to read', () => {
    expect(rows.map((row) => row.name)).toContain('postal_redirect_address');
    expect(rows.length).toBe(14);
  });

  // The checks below run only where a row's wording matches; if SPEC.md is reworded, they must not go quiet.
  it('finds every kind of rule it checks, as often as SPEC.md states it', () => {
    const count = (pattern: RegExp, column: string) => rows.filter((row) => pattern.test(row[column] ?? '')).length;
    expect({
      nullable: count(/or null/, 'Type'),
      serverAssigned: count(/server-assigned/, 'Required on create'),
      requiredOnCreate: count(/^yes/, 'Required on create'),
      maxLength: count(/Max (\d+) characters/, 'Rules'),
      allowed: count(/Allowed: ([^.]*)\./, 'Rules'),
      defaultOnCreate: count(/Default on create: `([^`]+)`/, 'Rules'),
      uuid: count(/UUID/, 'Type'),
      dateTime: count(/ISO 8601/, 'Type'),
      email: count(/email format/, 'Rules'),
      object: count(/object/, 'Type'),
    }).toEqual(RULE_COUNTS);
  });

  it.each(rows.map((row) => [row.name, row] as const))('%s is described by the Customer schemas', (name, row) => {
    const property = customer.properties[name];
    expect(property, `Customer.${name}`).toBeDefined();
    expect(customer.required).toContain(name);

    const nullable = /or null/.test(row.Type ?? '');
    expect(types(property).includes('null'), `${name} nullability`).toBe(nullable);

    const serverAssigned = /server-assigned/.test(row['Required on create'] ?? '');
    if (serverAssigned) {
      expect(property.readOnly, `${name} readOnly`).toBe(true);
      expect(create.properties[name]).toBeUndefined();
      expect(update.properties[name]).toBeUndefined();
    } else {
      expect(create.properties[name], `CustomerCreate.${name}`).toBeDefined();
      expect(update.properties[name], `CustomerUpdate.${name}`).toBeDefined();
      expect((create.required ?? []).includes(name)).toBe(/^yes/.test(row['Required on create'] ?? ''));
      expect(update.required ?? []).not.toContain(name);
    }

    const rules = row.Rules ?? '';
    const limit = /Max (\d+) characters/.exec(rules)?.[1];
    const allowed = /Allowed: ([^.]*)\./.exec(rules)?.[1];
    const fallback = /Default on create: `([^`]+)`/.exec(rules)?.[1];
    for (const schema of serverAssigned ? [customer] : [customer, create, update]) {
      const node = schema.properties[name];
      if (limit) expect(maxLength(node), `${name} maxLength`).toBe(Number(limit));
      if (allowed) expect(enumValues(node).sort()).toEqual(codeValues(allowed).sort());
      if (/UUID/.test(row.Type ?? '')) expect(formatOf(node)).toBe('uuid');
      if (/ISO 8601/.test(row.Type ?? '')) expect(formatOf(node)).toBe('date-time');
      if (/email format/.test(rules)) expect(formatOf(node)).toBe('email');
      if (/object/.test(row.Type ?? '')) expect(flatten(node).some((s) => s === schemas.Address)).toBe(true);
    }
    if (fallback) {
      expect(create.properties[name].default).toBe(fallback);
      expect(update.properties[name].default, 'no defaults on update').toBeUndefined();
    }
    if (name === 'source') expect(enumValues(property)).toEqual(['api']);
  });
});

describe('SPEC.md §2 Address object', () => {
  const [table] = tablesUnder(spec, '### Address object');
  it('reads the Address rows', () => expect((table ?? []).length).toBe(ADDRESS_ROWS));
  it.each((table ?? []).map((row) => [fieldName(row), Number(row['Max length'])] as const))(
    'Address.%s is an optional string of at most %i characters',
    (name, limit) => {
      const address = schemas.Address!;
      expect(address.properties[name].type).toBe('string');
      expect(address.properties[name].maxLength).toBe(limit);
      expect(address.required ?? []).not.toContain(name);
      expect(address.additionalProperties).toBe(false);
    },
  );
});

describe('SPEC.md §4 endpoints and their statuses', () => {
  const endpoints = [...spec.matchAll(/### 4\.\d[^\n]*\n([\s\S]*?)(?=\n### |\n## )/g)].map((match) => {
    const body = match[1] ?? '';
    const [method, path] = (/Method and path: `(\w+) ([^`]+)`/.exec(body)?.slice(1) ?? []) as [string, string];
    const success = /Success: `(\d{3})/.exec(body)?.[1];
    const errors = [...(/Errors: ([^\n]*)/.exec(body)?.[1] ?? '').matchAll(/\b(\d{3})\b/g)].map((m) => m[1]);
    return { method: method.toLowerCase(), path, statuses: [success, ...errors] as string[] };
  });

  it('reads the four operations, each with a success and at least one error status', () => {
    expect(endpoints).toHaveLength(4);
    for (const endpoint of endpoints) {
      expect(endpoint.statuses[0], endpoint.path).toMatch(/^2\d\d$/);
      expect(endpoint.statuses.length, endpoint.path).toBeGreaterThan(1);
    }
  });

  it.each(endpoints.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))('%s', (_, endpoint) => {
    const operation = doc.paths[endpoint.path]?.[endpoint.method];
    expect(operation, 'operation').toBeDefined();
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    for (const status of endpoint.statuses) expect(Object.keys(operation.responses)).toContain(status);
    const ids = [...(doc.paths[endpoint.path]?.parameters ?? []), ...(operation.parameters ?? [])]
      .map((p: Schema) => deref<Schema>(doc, p))
      .filter((p: Schema) => p.in === 'path');
    if (endpoint.path.includes('{id}')) {
      expect(ids).toHaveLength(1);
      expect(ids[0]).toMatchObject({ name: 'id', required: true, schema: { format: 'uuid' } });
    }
  });

  it('the create body is CustomerCreate and the update body CustomerUpdate with at least one property', () => {
    const body = (path: string, method: string) =>
      doc.paths[path]?.[method].requestBody.content['application/json'].schema.$ref;
    expect(body('/api/customers', 'post')).toBe('#/components/schemas/CustomerCreate');
    expect(body('/api/customers/{id}', 'patch')).toBe('#/components/schemas/CustomerUpdate');
    expect(update.minProperties).toBe(1);
    expect(create.additionalProperties).toBe(false);
    expect(update.additionalProperties).toBe(false);
  });
});

describe('SPEC.md §7 errors', () => {
  const [table] = tablesUnder(spec, '## 7. Errors');
  const rows = (table ?? []).map((row) => ({ status: row['HTTP code'] ?? '', reason: codeValues(row['`error`'] ?? '')[0] ?? (row['`error`'] ?? '') }));

  it('reads a status and a reason phrase from every row of the table', () => {
    expect(rows.length).toBe(ERROR_ROWS);
    for (const row of rows) expect(row, JSON.stringify(row)).toEqual({ status: expect.stringMatching(/^[45]\d\d$/), reason: expect.stringMatching(/^[A-Z]/) });
  });

  it('the Error schema is exactly {error, message}', () => {
    const error = schemas.Error!;
    expect(Object.keys(error.properties).sort()).toEqual(['error', 'message']);
    expect(error.required.sort()).toEqual(['error', 'message']);
    expect(error.additionalProperties).toBe(false);
  });

  it.each(rows.map((row) => [row.status, row.reason] as const))('every %s response is an Error whose examples say "%s"', (status, reason) => {
    let seen = 0;
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        const response = operation?.responses?.[status];
        if (!response) continue;
        const media = deref<Schema>(doc, response).content['application/json'];
        expect(media.schema.$ref).toBe('#/components/schemas/Error');
        const examples = Object.values(media.examples ?? {}) as Schema[];
        expect(examples.length).toBeGreaterThan(0);
        for (const example of examples) expect(deref<Schema>(doc, example).value.error).toBe(reason);
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('the 401 example for a missing key names both ways of sending it', () => {
    const examples = doc.components.responses!.Unauthorized.content['application/json'].examples;
    expect(examples.missingKey.value.message).toMatch(/X-API-Key/);
    expect(examples.missingKey.value.message).toMatch(/Bearer/);
  });

  it('the 403 example states the number of customers the plan allows', () => {
    const examples = doc.components.responses!.PlanLimitReached.content['application/json'].examples;
    expect(examples.limitReached.value.message).toMatch(/\d+ customers/);
  });
});

describe('SPEC.md §5 authentication', () => {
  it('offers the X-API-Key header and a Bearer token as alternatives on every operation', () => {
    const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
    const schemes = doc.components.securitySchemes!;
    expect(schemes.ApiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const operations of Object.values(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!HTTP_METHODS.includes(method)) continue; // path-level `parameters`, `description`
        expect(operation.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
        expect(Object.keys(operation.responses)).toContain('401');
      }
    }
  });
});
