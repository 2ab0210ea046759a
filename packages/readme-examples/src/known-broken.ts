/**
 * Blocks in READMEs that do not compile yet, by README and block number (1-based, among its ```ts blocks) with
 * the error codes they raise. The test insists on exactly these codes, so it fails both when a listed block
 * breaks differently and once it is fixed (then delete its entry). Fix a block by completing it, declaring what
 * it uses in a `<!-- ts-prelude -->` comment, or marking it ```ts no-check: why. Empty: every block compiles.
 */
export const KNOWN_BROKEN: Readonly<Record<string, Readonly<Record<number, readonly string[]>>>> = {};
