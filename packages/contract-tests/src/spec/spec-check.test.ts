// `pnpm spec:check FILE` (scripts/spec-check.mjs): each breaking edit of the spec fails naming it, additive edits
// and a breaking edit introduced as a new version pass. Every case edits a temporary copy of openapi.yaml.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { fromRepoRoot, type OpenApiDocument, type Schema } from './load-documents.js';

type Edit = (spec: OpenApiDocument & Record<string, any>) => void;
const dir = mkdtempSync(join(tmpdir(), 'spec-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the root script on openapi.yaml changed by `edit`: its exit code and all it printed. */
function specCheck(name: string, edit: Edit): Promise<{ code: number | null; output: string }> {
  const spec = parse(readFileSync(fromRepoRoot('openapi.yaml'), 'utf8'));
  edit(spec);
  const file = join(dir, `${name}.yaml`);
  // Without YAML aliases for repeated objects: Optic does not follow them.
  writeFileSync(file, stringify(spec, { aliasDuplicateObjects: false }));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fromRepoRoot('scripts/spec-check.mjs'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const schemas = (spec: OpenApiDocument): Record<string, Schema> => spec.components.schemas!;
const newVersion: Edit = (spec) => spec['x-api-versions'].unshift({ version: '2099-01-01', summary: 'A test version.' });

const BREAKING: [name: string, edit: Edit, named: RegExp][] = [
  ['a removed operation', (spec) => delete spec.paths['/api/customers/{id}']!.delete, /DELETE \/api\/customers\/\{id\}: removed[\s\S]*cannot remove an operation/],
  [
    'a removed response property',
    (spec) => {
      const customer = schemas(spec).Customer!;
      delete customer.properties.legal_entity;
      customer.required = customer.required.filter((name: string) => name !== 'legal_entity');
    },
    /cannot remove response property 'legal_entity'/,
  ],
  [
    'a new required request property',
    (spec) => {
      const create = schemas(spec).CustomerCreate!;
      create.properties.nickname = { type: 'string' };
      create.required.push('nickname');
    },
    /cannot add a required request property 'nickname'/,
  ],
  ['a narrowed enum', (spec) => void (schemas(spec).Status!.enum = ['active', 'inactive']), /cannot remove enum option 'suspended' from 'status'/],
  [
    'a changed property type',
    (spec) => {
      const postal = schemas(spec).Address!.properties.postal_code;
      postal.type = 'integer';
      delete postal.maxLength;
    },
    /postal_code: type string was changed to integer/,
  ],
  ['a changed response property type', (spec) => void (schemas(spec).Customer!.properties.created_at.type = 'integer'), /prevent response property type changes\] expected response body property 'created_at'/],
];

// Each case runs the spec checker (optic) twice on the whole openapi.yaml: tens of seconds beside two busy loops.
describe('pnpm spec:check', { timeout: 180_000 }, () => {
  it('passes the spec as it is', async () => {
    const { code, output } = await specCheck('unchanged', () => {});
    expect(output).toMatch(/no breaking change against the released 2026-11-26/);
    expect(code).toBe(0);
  });

  it.each(BREAKING)('fails on %s, naming it', async (name, edit, named) => {
    const { code, output } = await specCheck(name.replaceAll(' ', '-'), edit);
    expect(output).toMatch(/breaks the released version 2026-11-26/);
    expect(output).toMatch(named);
    expect(code).toBe(1);
  });

  it('passes an added optional request property and an added operation', async () => {
    const optional = await specCheck('optional-property', (spec) => {
      schemas(spec).CustomerCreate!.properties.nickname = { type: 'string', maxLength: 50 };
    });
    expect(optional.output).toMatch(/no breaking change/);
    expect(optional.code).toBe(0);
    const operation = await specCheck('new-operation', (spec) => {
      const get = spec.paths['/api/customers/{id}']!.get;
      spec.paths['/api/customers/{id}/history'] = { parameters: spec.paths['/api/customers/{id}']!.parameters, get: { ...get, operationId: 'getCustomerHistory' } };
    });
    expect(operation.output).toMatch(/no breaking change/);
    expect(operation.code).toBe(0);
  });

  it('lets a breaking change through as a new version, and refuses dropping a released version', async () => {
    const introduced = await specCheck('new-version', (spec) => {
      BREAKING[0]![1](spec);
      newVersion(spec);
    });
    expect(introduced.output).toMatch(/introduces version 2099-01-01/);
    expect(introduced.code).toBe(0);
    const dropped = await specCheck('dropped-version', (spec) => {
      spec['x-api-versions'] = [{ version: '2099-01-01', summary: 'A test version.' }];
    });
    expect(dropped.output).toMatch(/no longer lists the released version\(s\) 2026-11-26/);
    expect(dropped.code).toBe(1);
  });
});
