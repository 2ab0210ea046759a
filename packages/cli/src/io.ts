/** Where a command writes: lines for the user (stdout) and problems (stderr). Tests capture both. */
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}

/** A bad command line: exit code 2, the message and a pointer to --help. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The process's own streams. */
export const processIO: CliIO = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};
