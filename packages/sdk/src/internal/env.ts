/**
 * Reads an environment variable where one exists (Node, Bun, Deno with `process`), and never throws:
 * Deno without `--allow-env` throws on access, browsers have no `process`.
 */
export function readEnv(name: string): string | undefined {
  try {
    const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
    // Stryker disable next-line OptionalChaining: a missing process or env throws inside the try, and the catch answers undefined alike
    const value = proc?.env?.[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  } catch /* Stryker disable next-line BlockStatement: an emptied catch also answers undefined, like its return undefined */ {
    return undefined;
  }
}
