#!/usr/bin/env node
// Copies the repository's openapi.yaml into the package, so the published mock answers `Prefer: example=NAME`
// from the very contract it was built with (the copy is ignored by git and listed in `files`).
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

copyFileSync(fileURLToPath(new URL('../../../openapi.yaml', import.meta.url)), fileURLToPath(new URL('../openapi.yaml', import.meta.url)));
