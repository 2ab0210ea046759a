import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface Child {
  pid: number;
  /** The next message the child sends; rejects (with its stderr) if it exits first. */
  next<T>(): Promise<T>;
  /** One message to the child over IPC. */
  send(message: unknown): void;
  /** SIGTERM, then waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/**
 * Runs one of this package's scripts in its own Node process (TypeScript through tsx), sends it `input` over IPC and
 * lets the caller wait for its messages. Load generators, servers and mocks each get their own process, so
 * none measures itself. `nodeArgs` go to Node before the script (`--cpu-prof` for BENCH_CPU_PROF).
 */
export function startChild(
  script: string,
  input: unknown,
  { logs = false, nodeArgs = [] }: { logs?: boolean; nodeArgs?: readonly string[] } = {},
): Child {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...loader, script], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', logs ? 'inherit' : 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const messages: unknown[] = [];
  const waiting: Array<{ resolve: (value: unknown) => void; reject: (error: Error) => void }> = [];
  let exitError: Error | undefined;
  child.on('message', (message) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else messages.push(message);
  });
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exitError = new Error(`${script} exited (${signal ?? code}) without answering:\n${stderr}`);
      for (const waiter of waiting.splice(0)) waiter.reject(exitError);
      resolve();
    });
  });
  child.send(input as object);
  return {
    pid: child.pid!,
    send(message) {
      child.send(message as object);
    },
    next<T>() {
      if (messages.length > 0) return Promise.resolve(messages.shift() as T);
      if (exitError) return Promise.reject(exitError);
      return new Promise<T>((resolve, reject) => waiting.push({ resolve: resolve as (value: unknown) => void, reject }));
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** In a child script: the input the parent sent. */
export function childInput<T>(): Promise<T> {
  return new Promise((resolve) => process.once('message', (message) => resolve(message as T)));
}

/** In a child script: one message to the parent. */
export function reply(message: unknown): Promise<void> {
  return new Promise((resolve, reject) =>
    process.send!(message as object, undefined, {}, (error) => (error ? reject(error) : resolve())),
  );
}
