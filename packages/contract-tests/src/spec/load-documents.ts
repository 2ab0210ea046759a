import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Path of a file relative to the repository root. */
export const fromRepoRoot = (path: string): string => `${repoRoot}${path}`;

/** openapi.yaml as a plain object (the hand-written contract). */
export function loadOpenApi(): OpenApiDocument {
  return parse(readFileSync(fromRepoRoot('openapi.yaml'), 'utf8')) as OpenApiDocument;
}

/** The product specification: the repository's copy of the user's SPEC.md. */
export function loadSpecMarkdown(): string {
  return readFileSync(fromRepoRoot('docs/SPEC.md'), 'utf8');
}

// Loose shapes: the tests walk the document generically.
export type Schema = Record<string, any>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
  security?: Array<Record<string, string[]>>;
}

/** Follows local `$ref`s (`#/components/...`) until a concrete object is reached. */
export function deref<T = Schema>(doc: OpenApiDocument, node: any): T {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    const parts = current.$ref.replace(/^#\//, '').split('/');
    current = parts.reduce((value: any, key: string) => value?.[key], doc);
  }
  return current as T;
}
