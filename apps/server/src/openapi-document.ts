import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string; description?: string }[];
  components: { schemas: Record<string, unknown> };
  [key: string]: unknown;
}

let cached: { text: string; document: OpenApiDocument } | undefined;

/**
 * openapi.yaml, the contract: copied next to the bundle at build time (dist/openapi.yaml), else found by
 * walking up from this module to the repository root (running from source in tests).
 */
export function loadOpenApi(): { text: string; document: OpenApiDocument } {
  if (cached) return cached;
  const text = readFileSync(findOpenApiFile(), 'utf8');
  cached = { text, document: parse(text) as OpenApiDocument };
  return cached;
}

function findOpenApiFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    const candidate = join(dir, 'openapi.yaml');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error('openapi.yaml not found next to the server bundle or in a parent directory');
}
