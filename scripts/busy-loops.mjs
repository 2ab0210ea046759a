// Runs a command with CPU-bound processes beside it, as a contributor's editor, browser or other builds would
// load the machine: a test whose verdict depends on the machine's speed fails here first (issue 40).
//   node scripts/busy-loops.mjs [--loops N] -- COMMAND [ARGS...]
// Starts N (default 2) `node` processes that spin until the command ends, runs the command with the terminal's
// stdio, then stops the loops it started (by their pids) and exits with the command's exit code.
// Examples:
//   node scripts/busy-loops.mjs -- npx -y pnpm@10.34.8 test
//   node scripts/busy-loops.mjs -- npx vitest run src/server/shared-limit-serve.test.ts   (in apps/server)
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const separator = args.indexOf('--');
if (separator === -1 || separator === args.length - 1) {
  console.error('Usage: node scripts/busy-loops.mjs [--loops N] -- COMMAND [ARGS...]');
  process.exit(2);
}
const options = args.slice(0, separator);
const loopsAt = options.indexOf('--loops');
const loops = loopsAt === -1 ? 2 : Number(options[loopsAt + 1]);
if (!Number.isInteger(loops) || loops < 0) {
  console.error(`--loops must be a whole number, got ${options[loopsAt + 1]}`);
  process.exit(2);
}
const [command, ...commandArgs] = args.slice(separator + 1);

const busy = Array.from({ length: loops }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
console.error(`[busy-loops] ${loops} CPU-bound processes running (pids ${busy.map((child) => child.pid).join(', ')})`);
const stopLoops = () => {
  for (const child of busy) if (child.exitCode === null) child.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const started = performance.now();
const child = spawn(command, commandArgs, { stdio: 'inherit' });
child.on('error', (error) => {
  console.error(`[busy-loops] could not start ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.error(`[busy-loops] ${command} ended with ${signal ?? `exit code ${code}`} after ${seconds} s beside ${loops} busy loops`);
  process.exit(code ?? 1);
});
