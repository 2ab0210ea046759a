// Test support: the Customer response schema from openapi.yaml, compiled at run time with ajv, so tests
// check responses against the contract itself rather than against the code under test.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/** The repository's openapi.yaml: the nearest one above this file (Stryker runs the tests from a copy of core). */
function findSpec(): string {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const candidate = new URL('openapi.yaml', dir);
    if (existsSync(candidate)) return fileURLToPath(candidate);
  }
  throw new Error('openapi.yaml not found above packages/core/test');
}
const specPath = findSpec();
const spec = parse(readFileSync(specPath, 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({
  $id: 'openapi',
  $defs: JSON.parse(
    JSON.stringify(spec.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
  ),
});

const customerValidator = ajv.getSchema('openapi#/$defs/Customer')!;
const errorValidator = ajv.getSchema('openapi#/$defs/Error')!;

/** Throws with ajv's report unless `value` is a valid `Customer` per openapi.yaml. */
export function assertCustomerSchema(value: unknown): void {
  if (!customerValidator(value)) {
    throw new Error(`not a Customer: ${ajv.errorsText(customerValidator.errors)}`);
  }
}

/** Throws unless `value` is a valid `Error` body per openapi.yaml. */
export function assertErrorSchema(value: unknown): void {
  if (!errorValidator(value)) throw new Error(`not an Error: ${ajv.errorsText(errorValidator.errors)}`);
}

/** The `examples` of a named response in openapi.yaml (their messages fix the API's wording). */
export function responseExampleMessages(response: string): string[] {
  const examples = spec.components.responses[response].content['application/json'].examples;
  return Object.values(examples as Record<string, { value: { message: string } }>).map((e) => e.value.message);
}

/** Whether openapi.yaml's schema `name` accepts `value`, compiled afresh at run time (not the generated code). */
export function specAccepts(name: string, value: unknown): boolean {
  return Boolean(ajv.getSchema(`openapi#/$defs/${name}`)!(value));
}
