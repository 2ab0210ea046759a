#!/usr/bin/env node
// Copies the repository's openapi.yaml into the package, so the published mock answers `Prefer: example=NAME`
// from the very contract it was built with, and openapi.mock-control.yaml, the control API's description that the
// package exports (both copies are ignored by git and listed in `files`).
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

for (const name of ['openapi.yaml', 'openapi.mock-control.yaml']) {
  copyFileSync(fileURLToPath(new URL(`../../../${name}`, import.meta.url)), fileURLToPath(new URL(`../${name}`, import.meta.url)));
}
