import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sqlitePath } from '../db/connect.js';
import { createSecretBox, type SecretBox } from './secret-box.js';

/** The key itself (base64 or hex of 32 bytes). */
export const SECRET_KEY_ENV = 'WEBHOOK_SECRET_KEY';
/** A file holding the key; created (mode 0600) when missing. `--secret-key-file` wins over it. */
export const SECRET_KEY_FILE_ENV = 'WEBHOOK_SECRET_KEY_FILE';
/** The key file's name in the data folder when neither is given. */
export const DEFAULT_SECRET_KEY_FILE = 'webhook-secret.key';

export interface SecretKeyOptions {
  /** A key file (`--secret-key-file` or `WEBHOOK_SECRET_KEY_FILE`). */
  file?: string | undefined;
  /** The key itself (`WEBHOOK_SECRET_KEY`). */
  key?: string | undefined;
  /** Decides the default location: the SQLite file's folder, else `./data`. */
  databaseUrl: string;
}

/** The key that seals endpoint secrets, and where it came from (a name or path, never the key). */
export interface LoadedSecretKey {
  box: SecretBox;
  source: string;
}

/**
 * Where the key comes from: `--secret-key-file`, else `WEBHOOK_SECRET_KEY`, else `WEBHOOK_SECRET_KEY_FILE`, else
 * (nothing set) the default file.
 *
 * @example
 * secretKeySource(values['secret-key-file'], process.env); // { file: '/etc/customers-api/webhook.key' }
 */
export function secretKeySource(flagFile: string | undefined, env: NodeJS.ProcessEnv): { file?: string; key?: string } {
  if (flagFile) return { file: flagFile };
  if (env[SECRET_KEY_ENV]) return { key: env[SECRET_KEY_ENV] };
  if (env[SECRET_KEY_FILE_ENV]) return { file: env[SECRET_KEY_FILE_ENV] };
  return {};
}

/**
 * The key for endpoint secrets, from a file or the environment's text (see {@link secretKeySource}), else from
 * `webhook-secret.key` in the data folder (the SQLite file's folder; `./data` for PostgreSQL). A key file that
 * does not exist yet is created with a new random key, readable by its owner only (0600, its new folder 0700); two
 * processes creating it at once end up with the same one. A key file others may read or that another user owns is
 * refused with the command that fixes it ({@link keyFileProblem}).
 *
 * @example
 * const { box } = loadSecretKey({ databaseUrl: 'sqlite:./data/customers.db' });
 */
export function loadSecretKey({ file, key, databaseUrl }: SecretKeyOptions): LoadedSecretKey {
  if (file === undefined && key) return { box: createSecretBox(parseSecretKey(key, SECRET_KEY_ENV)), source: SECRET_KEY_ENV };
  const path = resolve(file ?? defaultKeyFile(databaseUrl));
  return { box: createSecretBox(parseSecretKey(readOrCreate(path), path)), source: path };
}

/** 32 bytes as base64 (44 characters) or hex (64 digits); `where` names the source in the error. */
export function parseSecretKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && bytes.toString('base64') !== trimmed)) {
    throw new Error(`The webhook secret key in ${where} must be 32 bytes as base64 (44 characters) or hex (64 digits)`);
  }
  return bytes;
}

function defaultKeyFile(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = sqlitePath(databaseUrl);
    if (path !== ':memory:') return join(dirname(resolve(path)), DEFAULT_SECRET_KEY_FILE);
  }
  return join('data', DEFAULT_SECRET_KEY_FILE);
}

/**
 * Why a key file must not be used, or undefined: it is refused when group or others have any permission on it (they
 * could read the key, or replace it) or when another user owns it (they can read it, and chmod it back). `uid` is
 * this process's user, undefined where there are none (Windows), and then only the mode is looked at.
 *
 * @example
 * keyFileProblem('/k', statSync('/k'), process.getuid?.());
 */
export function keyFileProblem(path: string, stat: { mode: number; uid: number }, uid: number | undefined): string | undefined {
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) {
    return `The webhook secret key file ${path} is owned by another user (uid ${stat.uid}, this process runs as uid ${uid}): run chown ${uid} ${path}, or start the server as its owner`;
  }
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    return `The webhook secret key file ${path} can be read or written by other users (mode 0${mode.toString(8)}): run chmod 600 ${path}`;
  }
  return undefined;
}

/** The key file's text, checked on the descriptor that is read (no window between the check and the read). */
function readKeyFile(path: string): string {
  const descriptor = openSync(path, 'r');
  try {
    const problem = keyFileProblem(path, fstatSync(descriptor), process.getuid?.());
    if (problem) throw new Error(problem);
    return readFileSync(descriptor, 'utf8');
  } finally {
    closeSync(descriptor);
  }
}

function readOrCreate(path: string): string {
  try {
    return readKeyFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Only the owner may enter a folder we create for the key (an existing folder is the operator's to set).
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole under a temporary name, then linked into place: a process starting at the same moment reads
  // either no file or the complete key, never half of one, and link() refuses to replace the winner's.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  // The mode given at creation is narrowed by the umask, never widened: 0600 stays at most that.
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  return readKeyFile(path);
}
