// Release dry run: what a user would install if the pending changesets were released now.
//   1. copies the repository (tracked and new files) to a scratch folder;
//   2. runs `changeset version` there (the real checkout is never touched);
//   3. installs the new versions from pnpm's store (offline), builds them and `pnpm pack`s every publishable
//      package (workspace: and catalog: ranges become real ones);
//   4. installs the tarballs with plain npm in an empty folder and runs examples/seller-app (ESM and CommonJS).
// Needs an installed checkout (pnpm's store) and the npm registry. Usage: node scripts/release-dry-run.mjs [--keep]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM = ['-y', 'pnpm@10.34.8'];
const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'customers-api-release-'));
const repo = join(scratch, 'repo');
const tarballs = join(scratch, 'tarballs');
const app = join(scratch, 'app');
const keep = process.argv.includes('--keep');

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const step = (text) => console.log(`[release-dry-run] ${text}`);

function publishable() {
  return readdirSync(join(root, 'packages'))
    .map((name) => join('packages', name))
    .filter((dir) => existsSync(join(root, dir, 'package.json')) && readJson(join(root, dir, 'package.json')).private !== true);
}

function copyRepository() {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    cpSync(join(root, file), join(repo, file));
  }
  symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules')); // for changesets' changelog module
}

function pack(dir) {
  const before = new Set(existsSync(tarballs) ? readdirSync(tarballs) : []);
  run('npx', [...PNPM, 'pack', '--pack-destination', tarballs], join(repo, dir));
  const [tarball] = readdirSync(tarballs).filter((f) => !before.has(f));
  const manifest = JSON.parse(run('tar', ['-xOzf', join(tarballs, tarball), 'package/package.json'], scratch));
  const ranges = JSON.stringify([manifest.dependencies, manifest.peerDependencies]);
  if (/workspace:|catalog:/.test(ranges)) throw new Error(`${tarball} still has a workspace: or catalog: range: ${ranges}`);
  step(`packed ${tarball} (dependencies ${JSON.stringify(manifest.dependencies ?? {})})`);
  return join(tarballs, tarball);
}

try {
  const packages = publishable();
  copyRepository();
  const versionsBefore = packages.map((dir) => readJson(join(repo, dir, 'package.json')).version);
  run(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], repo);
  const names = packages.map((dir, i) => {
    const { name, version } = readJson(join(repo, dir, 'package.json'));
    step(`changeset version: ${name} ${versionsBefore[i]} -> ${version}`);
    return name;
  });
  // pnpm pack reads the versions of workspace: dependencies from node_modules: install the new ones (from the store).
  rmSync(join(repo, 'node_modules'));
  const filters = names.flatMap((name) => ['--filter', name]);
  run('npx', [...PNPM, 'install', '--offline', '--ignore-scripts', '--no-frozen-lockfile', ...filters], repo);
  // Built after versioning, as `pnpm release` does: the SDK bakes its version into the bundle.
  run('npx', [...PNPM, '--recursive', ...filters, 'run', 'build'], repo);

  const files = packages.map(pack);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'seller-app', private: true }, null, 2));
  const msw = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').match(/^\s+msw: (\S+)$/m)[1];
  step(`npm install ${files.length} tarballs and msw@${msw} in an empty folder`);
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files, `msw@${msw}`], app);
  const sdkVersion = readJson(join(repo, 'packages/sdk/package.json')).version;
  cpSync(join(root, 'examples/seller-app'), app, { recursive: true, filter: (f) => !f.endsWith('.md') });
  for (const file of ['app.mjs', 'app.cjs']) {
    const line = run(process.execPath, [file], app).trim();
    step(line);
    if (!line.includes(`(sdk ${sdkVersion})`)) throw new Error(`${file} did not run the packed SDK ${sdkVersion}`);
  }
  step('OK');
} catch (error) {
  console.error(`[release-dry-run] FAILED: ${error.stderr || error.stdout || error.message}`);
  process.exitCode = 1;
} finally {
  if (keep) step(`scratch folder kept: ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
