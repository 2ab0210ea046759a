// Release dry run: what a user would install if the pending changesets were released now, and whether it works.
//   1. copies the repository (tracked and new files) to a scratch folder, with the packages' built dist and
//      their node_modules links (the real checkout is never touched);
//   2. runs `changeset version` there;
//   3. rebuilds what bakes its version in (the SDK) and `pnpm pack`s every publishable package (workspace: and
//      catalog: ranges become real ones);
//   4. installs the tarballs with plain npm in an empty folder holding examples/frontend-app (its own
//      package.json, our packages replaced by the tarballs) and examples/seller-app;
//   5. checks: each tarball's contents (LICENSE, README, CHANGELOG, metadata) and `npm publish --dry-run` of it;
//      seller-app on ESM and CommonJS, frontend-app's `tsc` (the packed types in a strict DOM project) and its
//      vitest suite (happy-dom + @customers-api/msw + the SDK);
//   6. every package README's quick starts (the blocks after `<!-- quick-start: FILE -->`), taken from the README
//      in the tarball and run as written in a fresh `npm init -y` project (CommonJS, as npm makes it) holding the
//      tarballs, the SDK's against the packed HTTP mock's CLI.
// Each check is one test in `test-results/release-dry-run.json` (vitest's counters), which the root test summary
// adds up. `pnpm test` runs it through turbo (`test:release`, after the packages' builds, cached on its inputs);
// `pnpm release:dry-run` runs only it. Needs the built packages, the installed checkout and the npm registry.
// Usage: node scripts/release-dry-run.mjs [--keep]
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Under `pnpm` (turbo runs the task through it) its own binary is on PATH; npx costs seconds per call.
const PNPM = process.env.npm_config_user_agent?.startsWith('pnpm/10.34.8 ') ? ['pnpm'] : ['npx', '-y', 'pnpm@10.34.8'];
// Packages whose build output depends on their version: the SDK bakes it into the bundle (tsup `define`,
// `CustomersClient.VERSION`). The others' dist is the one turbo built, as `pnpm release` publishes it.
const REBUILT = ['packages/sdk'];
const root = fileURLToPath(new URL('..', import.meta.url));
const reportFile = join(root, 'test-results', 'release-dry-run.json');
const scratch = mkdtempSync(join(tmpdir(), 'customers-api-release-'));
const repo = join(scratch, 'repo');
const tarballs = join(scratch, 'tarballs');
const app = join(scratch, 'app');
const fresh = join(scratch, 'fresh');
const keep = process.argv.includes('--keep');
const started = performance.now();

// Provenance needs CI's identity: only the real publish (`pnpm release` in CI) asks for it, never this dry run.
const env = { ...process.env };
delete env.NPM_CONFIG_PROVENANCE;
delete env.npm_config_provenance;
const run = (cmd, args, cwd, extraEnv = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extraEnv } });
const pnpm = (args, cwd) => run(PNPM[0], [...PNPM.slice(1), ...args], cwd);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const step = (text) => console.log(`[release-dry-run ${((performance.now() - started) / 1000).toFixed(1)}s] ${text}`);

/** @type {{ name: string, ok: boolean, detail?: string }[]} */
const checks = [];
function check(name, ok, detail) {
  checks.push({ name, ok, ...(detail ? { detail } : {}) });
  step(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail && !ok ? `\n${detail}` : ''}`);
}
/** Runs one check's command; a non-zero exit fails the check (with the command's output) but not the run. */
function checkRun(name, cmd, args, cwd, verify = () => true, extraEnv = {}) {
  try {
    const output = run(cmd, args, cwd, extraEnv);
    check(name, verify(output), output.trim());
  } catch (error) {
    check(name, false, `${error.stdout ?? ''}${error.stderr ?? error.message}`.trim());
  }
}

function publishable() {
  return readdirSync(join(root, 'packages'))
    .map((name) => join('packages', name))
    .filter((dir) => existsSync(join(root, dir, 'package.json')) && readJson(join(root, dir, 'package.json')).private !== true);
}

function copyRepository(packages) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    cpSync(join(root, file), join(repo, file));
  }
  symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules')); // changesets, and what the links below reach
  for (const dir of packages) {
    // pnpm's links are relative: copied as they are, @customers-api/* point at the scratch copies (pnpm pack reads
    // their new versions there) and everything else at the checkout's store through the node_modules link above.
    cpSync(join(root, dir, 'node_modules'), join(repo, dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    if (!existsSync(join(root, dir, 'dist'))) throw new Error(`${dir}/dist is missing: build first (pnpm release:dry-run does)`);
    // What the build made and git ignores, as `pnpm release` would pack it: dist, and the mock's copy of openapi.yaml.
    for (const entry of readJson(join(root, dir, 'package.json')).files ?? []) {
      const built = join(root, dir, entry);
      if (REBUILT.includes(dir) && entry === 'dist') continue;
      if (existsSync(built) && !existsSync(join(repo, dir, entry))) cpSync(built, join(repo, dir, entry), { recursive: true });
    }
  }
}

/** Packs every publishable package at once; fails when a tarball still has a workspace: or catalog: range. */
function pack(names) {
  pnpm(['--recursive', ...names.flatMap((name) => ['--filter', name]), 'pack', '--pack-destination', tarballs], repo);
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  const loose = [];
  for (const file of files) {
    const manifest = JSON.parse(run('tar', ['-xOzf', file, 'package/package.json'], scratch));
    const ranges = JSON.stringify([manifest.dependencies, manifest.peerDependencies]);
    if (/workspace:|catalog:/.test(ranges)) loose.push(`${manifest.name}: ${ranges}`);
    step(`packed ${manifest.name}@${manifest.version} (dependencies ${JSON.stringify(manifest.dependencies ?? {})})`);
  }
  check(`packs ${files.length} packages with real version ranges`, files.length === names.length && loose.length === 0, loose.join('\n'));
  return new Map(files.map((file) => [JSON.parse(run('tar', ['-xOzf', file, 'package/package.json'], scratch)).name, file]));
}

/**
 * The consumer folder: examples/frontend-app with our packages replaced by the tarballs (every tarball is added,
 * so each installs with plain npm), and examples/seller-app beside its sources, sharing its node_modules.
 */
function prepareConsumer(packed) {
  const example = (name) => join(root, 'examples', name);
  const skip = (file) => !/[\\/](node_modules|dist)$/.test(file);
  cpSync(example('frontend-app'), app, { recursive: true, filter: skip });
  cpSync(example('seller-app'), join(app, 'seller-app'), { recursive: true, filter: skip });
  const manifest = readJson(join(app, 'package.json'));
  const catalog = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const drift = [];
  for (const group of ['dependencies', 'devDependencies']) {
    for (const [name, range] of Object.entries(manifest[group] ?? {})) {
      if (packed.has(name)) continue;
      const pinned = catalog.match(new RegExp(`^\\s+'?${name.replace(/[/.]/g, '\\$&')}'?: (\\S+)$`, 'm'))?.[1];
      if (pinned !== range) drift.push(`${name}: ${range} in examples/frontend-app, ${pinned ?? 'absent'} in the catalog`);
    }
  }
  check("examples/frontend-app pins the catalog's versions", drift.length === 0, drift.join('\n'));
  manifest.dependencies ??= {};
  for (const [name, file] of packed) {
    if (manifest.devDependencies?.[name]) manifest.devDependencies[name] = `file:${file}`;
    else manifest.dependencies[name] = `file:${file}`;
  }
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

function frontendTests() {
  const results = join(scratch, 'frontend-vitest.json');
  try {
    run('npm', ['test', '--silent', '--', '--reporter=json', `--outputFile=${results}`], app);
  } catch (error) {
    if (!existsSync(results)) return check('frontend-app: vitest runs', false, `${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
  const { testResults } = readJson(results);
  for (const file of testResults) {
    if (file.assertionResults.length === 0) check(`frontend-app: ${file.name}`, false, file.message);
    for (const test of file.assertionResults) {
      check(`frontend-app: ${test.title}`, test.status === 'passed', test.failureMessages?.join('\n'));
    }
  }
}

/** What a package's tarball must hold for npm: the licence, README and changelog, and complete metadata. */
function checkTarballs(packed) {
  for (const [name, file] of packed) {
    const listed = new Set(run('tar', ['-tzf', file], scratch).split('\n').filter(Boolean));
    const manifest = JSON.parse(run('tar', ['-xOzf', file, 'package/package.json'], scratch));
    const missing = ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json'].filter((f) => !listed.has(`package/${f}`));
    const license = listed.has('package/LICENSE') ? run('tar', ['-xOzf', file, 'package/LICENSE'], scratch) : '';
    if (!license.startsWith('MIT License')) missing.push('an MIT LICENSE text');
    const fields = {
      description: typeof manifest.description === 'string' && manifest.description.length > 0,
      keywords: Array.isArray(manifest.keywords) && manifest.keywords.length > 0,
      license: manifest.license === 'MIT',
      homepage: typeof manifest.homepage === 'string' && manifest.homepage.startsWith('https://'),
      'bugs.url': typeof manifest.bugs?.url === 'string',
      'repository.directory': typeof manifest.repository?.url === 'string' && typeof manifest.repository?.directory === 'string',
      'publishConfig.access public': manifest.publishConfig?.access === 'public',
      'no provenance in publishConfig (CI sets it for the real publish)': manifest.publishConfig?.provenance === undefined,
    };
    missing.push(...Object.entries(fields).filter(([, ok]) => !ok).map(([field]) => field));
    // Every file the exports map (and main, types, bin) points at is in the tarball.
    const targets = [manifest.main, manifest.types, ...Object.values(manifest.bin ?? {})];
    const walk = (value) => (typeof value === 'string' ? targets.push(value) : Object.values(value ?? {}).forEach(walk));
    walk(manifest.exports);
    for (const target of targets.filter(Boolean)) {
      if (!listed.has(`package/${target.replace(/^\.\//, '')}`)) missing.push(`${target} (named in package.json)`);
    }
    check(`${name}@${manifest.version}: tarball has LICENSE, README, CHANGELOG and metadata`, missing.length === 0, `missing: ${missing.join(', ')}`);
    // A first release is cut with `changeset version`: a tarball still at 0.0.0, or whose CHANGELOG.md has no
    // section for its version, is one nobody versioned.
    const changelog = listed.has('package/CHANGELOG.md') ? run('tar', ['-xOzf', file, 'package/CHANGELOG.md'], scratch) : '';
    check(
      `${name}@${manifest.version}: a released version with its CHANGELOG.md section`,
      manifest.version !== '0.0.0' && changelog.includes(`\n## ${manifest.version}\n`),
      manifest.version === '0.0.0' ? 'still 0.0.0: run changeset version' : `CHANGELOG.md has no "## ${manifest.version}" section`,
    );
    checkRun(`${name}@${manifest.version}: npm publish --dry-run`, 'npm', ['publish', '--dry-run', '--provenance=false', '--tag', 'dry-run', file], scratch);
  }
}

/** The quick starts of a README: each fenced block right after a `<!-- quick-start: FILE -->` comment. */
function quickStarts(readme) {
  const found = [];
  for (const match of readme.matchAll(/<!--\s*quick-start:\s*(\S+)\s*-->\s*\n(`{3,})[^\n]*\n([\s\S]*?)\n\2/g)) {
    found.push({ file: match[1], code: `${match[3]}\n` });
  }
  return found;
}

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Every publishable package's README quick starts, as the tarball has them, in a fresh `npm init -y` project with
 * the tarballs (and msw, the MSW package's peer) installed by plain npm. The SDK's talk to the packed HTTP mock.
 */
async function runQuickStarts(packed) {
  mkdirSync(fresh);
  run('npm', ['init', '-y'], fresh);
  const catalog = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const msw = catalog.match(/^\s+msw: (\S+)$/m)[1];
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...packed.values(), `msw@${msw}`], fresh);
  step(`npm init -y and npm install of the ${packed.size} tarballs (and msw@${msw}) in a fresh project`);
  const port = await freePort();
  const cli = join(fresh, 'node_modules', '@customers-api', 'mock-server', 'dist', 'cli.js');
  const mock = spawn(process.execPath, [cli, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let banner = '';
    let errors = '';
    mock.stderr.on('data', (chunk) => (errors += chunk));
    await new Promise((resolve, reject) => {
      mock.stdout.on('data', (chunk) => (banner += chunk) && banner.includes('listening on') && resolve());
      mock.once('exit', (code) => reject(new Error(`the packed mock-server exited with ${code}: ${errors}`)));
    });
    const api = { CUSTOMERS_API_BASE_URL: `http://127.0.0.1:${port}`, CUSTOMERS_API_KEY: `sk_live_${'a'.repeat(48)}` };
    for (const name of packed.keys()) {
      const readme = run('tar', ['-xOzf', packed.get(name), 'package/README.md'], scratch);
      const blocks = quickStarts(readme);
      const forms = blocks.map((b) => (b.file.endsWith('.mjs') ? 'ESM' : 'CommonJS'));
      check(`${name}: README has a CommonJS and an ESM quick start`, forms.includes('ESM') && forms.includes('CommonJS'), `found ${forms.join(', ') || 'none'}`);
      const dir = join(fresh, name.split('/')[1]);
      mkdirSync(dir);
      for (const { file, code } of blocks) {
        writeFileSync(join(dir, file), code);
        const label = file.endsWith('.mjs') ? 'ESM' : 'CommonJS';
        checkRun(`${name}: README quick start runs as written (${label}, node ${file})`, process.execPath, [file], dir, () => true, api);
      }
    }
  } finally {
    mock.kill('SIGTERM');
  }
}

/** Every publishable package shares the `fixed` version line of .changeset/config.json (CONTRIBUTING says how one joins). */
function checkFixedGroup(packages) {
  const fixed = readJson(join(root, '.changeset', 'config.json')).fixed.flat();
  const manifests = packages.map((dir) => readJson(join(root, dir, 'package.json')));
  const outside = manifests.filter((m) => !fixed.includes(m.name)).map((m) => m.name);
  const versions = new Set(manifests.map((m) => m.version));
  const problems = [
    ...(outside.length > 0 ? [`not in the fixed group: ${outside.join(', ')}`] : []),
    ...(versions.size > 1 ? [`versions differ: ${manifests.map((m) => `${m.name}@${m.version}`).join(', ')}`] : []),
  ];
  check('every publishable package is in the fixed group, at one version', problems.length === 0, problems.join('\n'));
}

try {
  const packages = publishable();
  checkFixedGroup(packages);
  copyRepository(packages);
  step(`copied the repository to ${repo}`);
  const versionsBefore = packages.map((dir) => readJson(join(repo, dir, 'package.json')).version);
  run(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], repo);
  const names = packages.map((dir, i) => {
    const { name, version } = readJson(join(repo, dir, 'package.json'));
    step(`changeset version: ${name} ${versionsBefore[i]} -> ${version}`);
    // The release notes npm users will read: this version's section of the package's CHANGELOG.md.
    const changelog = join(repo, packages[i], 'CHANGELOG.md');
    const notes = existsSync(changelog) ? readFileSync(changelog, 'utf8').split(/^## /m)[1] : undefined;
    console.log(notes ? `  CHANGELOG.md ## ${notes.trim().replace(/\n/g, '\n  ')}\n` : '  (no CHANGELOG.md)');
    return name;
  });
  for (const dir of REBUILT) pnpm(['run', 'build'], join(repo, dir));
  step(`rebuilt ${REBUILT.join(', ')} with the new version`);
  const packed = pack(names);
  checkTarballs(packed);
  prepareConsumer(packed);
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  step(`npm installed ${packed.size} tarballs and examples/frontend-app's dependencies in an empty folder`);

  const sdkVersion = readJson(join(repo, 'packages/sdk/package.json')).version;
  for (const file of ['app.mjs', 'app.cjs']) {
    const label = file.endsWith('.mjs') ? 'ESM' : 'CommonJS';
    checkRun(`seller-app runs on the packed SDK ${sdkVersion} (${label})`, process.execPath, [file], join(app, 'seller-app'), (out) =>
      out.includes(`OK (sdk ${sdkVersion})`),
    );
  }
  checkRun('frontend-app type-checks against the packed types (tsc --strict, DOM)', 'npm', ['run', '--silent', 'typecheck'], app);
  frontendTests();
  await runQuickStarts(packed);
} catch (error) {
  check('release dry run completes', false, `${error.stderr || error.stdout || error.message}`);
} finally {
  const failed = checks.filter((c) => !c.ok).length;
  const summary = { numPassedTests: checks.length - failed, numFailedTests: failed, numPendingTests: 0, checks };
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify(summary, null, 2)}\n`);
  step(`${failed === 0 ? 'OK' : 'FAILED'}: ${summary.numPassedTests} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
  if (keep) step(`scratch folder kept: ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
