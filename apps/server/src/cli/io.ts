/** Where a command writes: stdout for results (JSON with --json), stderr for messages. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** What `--version` prints: the bin reads it from the package's package.json. */
  version?: string;
}

/** A failure the user can fix; printed without a stack, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
