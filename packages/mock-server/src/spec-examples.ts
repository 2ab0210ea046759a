import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OperationId } from '@customers-api/core';
import { parse } from 'yaml';

/** One named example of a documented response. */
export interface SpecExample {
  name: string;
  status: number;
  /** The example body; undefined for a response without content (204). */
  value: unknown;
}

/** The documented responses of every operation, in openapi.yaml's order: status, then example name. */
export type SpecExamples = ReadonlyMap<string, readonly SpecExample[]>;

/**
 * Where openapi.yaml is: the copy `pnpm build` puts beside the published package, else (in the workspace,
 * before a build) the repository's own.
 */
const CANDIDATES = ['../openapi.yaml', '../../../openapi.yaml'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

/**
 * Reads every response example of openapi.yaml per operationId (`$ref`s to components resolved), for
 * `Prefer: example=NAME` and `Prefer: code=NNN`. A response without examples (204) counts as one example
 * named after its status.
 *
 * @example
 * loadSpecExamples().get('getCustomer'); // [{ name: 'customer', status: 200, value: {...} }, { name: 'invalidKey', status: 401, ... }, ...]
 */
export function loadSpecExamples(specPath = CANDIDATES.find((path) => existsSync(path))): SpecExamples {
  if (!specPath) throw new Error(`openapi.yaml not found at ${CANDIDATES.join(' or ')}; run pnpm build`);
  const spec = parse(readFileSync(specPath, 'utf8')) as Record<string, unknown>;
  const resolve = (node: unknown): Record<string, unknown> => {
    let current = node as Record<string, unknown>;
    while (typeof current?.$ref === 'string') {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((parent, key) => (parent as Record<string, unknown>)?.[key], spec) as Record<string, unknown>;
    }
    return current ?? {};
  };
  const byOperation = new Map<OperationId, SpecExample[]>();
  for (const pathItem of Object.values(resolve(spec.paths))) {
    for (const operation of Object.values(resolve(pathItem))) {
      const { operationId, responses } = resolve(operation);
      if (typeof operationId !== 'string') continue;
      const examples: SpecExample[] = [];
      for (const [status, response] of Object.entries(resolve(responses))) {
        const content = resolve(resolve(resolve(response).content)['application/json']);
        const named = Object.entries(resolve(content.examples));
        if (named.length === 0) examples.push({ name: status, status: Number(status), value: undefined });
        for (const [name, example] of named) examples.push({ name, status: Number(status), value: resolve(example).value });
      }
      byOperation.set(operationId as OperationId, examples);
    }
  }
  return byOperation;
}
