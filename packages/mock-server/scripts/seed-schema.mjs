#!/usr/bin/env node
// Writes seed.schema.json: the JSON Schema of a seed file (`--seed FILE`), for editor completion through
// `"$schema"`. The customers' schema is openapi.yaml's CustomerCreate (with what it refers to), so the two cannot
// drift; src/seed-schema.test.ts holds the entry names to the seed reader's. `--check` fails when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const spec = parse(readFileSync(here('../../../openapi.yaml'), 'utf8'));
const OUT = here('../seed.schema.json');

/** openapi.yaml's component schemas, with their `$ref`s pointing into this file's `$defs`. */
function fromSpec(name) {
  return JSON.parse(JSON.stringify(spec.components.schemas[name]).replaceAll('"#/components/schemas/', '"#/$defs/'));
}

// Every scope openapi.yaml's operations name, as core's generator collects them.
const SCOPES = [
  ...new Set(
    Object.values(spec.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation?.['x-scopes'] ?? [])),
  ),
].sort();

const instant = (description) => ({
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
  description,
});
const uuid = (description) => ({
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description,
});

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/customers-api/customers-api-toolkit/blob/main/packages/mock-server/seed.schema.json',
  title: 'customers-api-mock seed file',
  description:
    'What `customers-api-mock --seed FILE` starts with: sellers with their API keys and customers, webhook endpoints and the clock. Unknown entries are refused.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', description: 'This schema, for editor completion: ./node_modules/@customers-api/mock-server/seed.schema.json' },
    sellers: {
      type: 'array',
      description: 'Without it, any well-formed key (sk_live_, sk_test_, rk_live_ or rk_test_ + 48 letters/digits) is one default seller.',
      items: { $ref: '#/$defs/Seller' },
    },
    webhooks: {
      type: 'array',
      description: 'Where every change event is delivered from the start (signed POSTs), and again after each reset.',
      items: { $ref: '#/$defs/WebhookEndpoint' },
    },
    clock: {
      type: 'object',
      additionalProperties: false,
      required: ['now'],
      description: "Start the mock's clock frozen at `now` (in the past if you like); reset returns to it.",
      properties: { now: instant('ISO 8601 with a time zone, e.g. 2020-01-01T00:00:00Z.') },
    },
  },
  $defs: {
    Seller: {
      type: 'object',
      additionalProperties: false,
      required: ['keys'],
      properties: {
        id: uuid('The seller id; generated when omitted.'),
        customerLimit: { type: 'integer', minimum: 0, default: 100, description: "The plan's customer limit." },
        apiVersion: {
          type: 'string',
          pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          description: 'The API version the seller is pinned to (one of openapi.yaml\'s x-api-versions): its requests without Customers-Version are answered in it. The latest when omitted.',
        },
        keys: { type: 'array', minItems: 1, items: { $ref: '#/$defs/Key' }, description: 'Its API keys; the first is shown in the start banner.' },
        customers: { type: 'array', items: { $ref: '#/$defs/CustomerCreate' }, description: "Created through the API's own rules, in order." },
      },
    },
    Key: {
      type: 'object',
      additionalProperties: false,
      required: ['key'],
      properties: {
        key: { type: 'string', pattern: '^(sk|rk)_(live|test)_[A-Za-z0-9]{48}$', description: 'sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits.' },
        scopes: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', enum: SCOPES },
          description: "A restricted key's (rk_) scopes, from openapi.yaml's x-scopes; required for an rk_ key, refused for an sk_ key.",
        },
        revoked: { type: 'boolean', default: false, description: 'Revoked from the start (401).' },
        expiresAt: instant("The key answers 401 from this instant on, on the mock's clock."),
      },
    },
    WebhookEndpoint: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', format: 'uri', pattern: '^https?://', description: 'An http or https URL; loopback and private addresses are allowed.' },
        secret: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$', description: 'whsec_ and base64; generated when omitted.' },
        events: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: ['customer.created', 'customer.updated', 'customer.deleted'] },
          description: 'The event types to deliver; every type when omitted.',
        },
        sellerId: uuid("Only this seller's events (one of sellers); every seller's when omitted."),
        apiVersion: {
          type: 'string',
          pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          description: "The API version its events are written in (one of openapi.yaml's x-api-versions not past its sunset): sent as api_version and the Customers-Version header. Its seller's pinned version when omitted (the latest without sellerId).",
        },
      },
    },
    CustomerCreate: fromSpec('CustomerCreate'),
    Address: fromSpec('Address'),
    Language: fromSpec('Language'),
    Status: fromSpec('Status'),
  },
};

const text = `${JSON.stringify(schema, null, 2)}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // missing: stale
  }
  if (current !== text) {
    console.error('seed.schema.json is stale: run `pnpm --filter @customers-api/mock-server generate` and commit it');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
}
