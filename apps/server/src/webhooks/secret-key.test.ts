import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFileProblem, loadSecretKey } from './secret-key.js';

const dir = mkdtempSync(join(tmpdir(), 'secret-key-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = `${Buffer.alloc(32, 7).toString('base64')}\n`;

describe('the webhook secret key file', () => {
  it('is created 0600 in a folder created 0700, whatever the umask', () => {
    const previous = process.umask(0o022);
    try {
      const file = join(dir, 'new', 'webhook-secret.key');
      loadSecretKey({ file, databaseUrl: 'sqlite::memory:' });
      expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
      expect((statSync(join(dir, 'new')).mode & 0o777).toString(8)).toBe('700');
    } finally {
      process.umask(previous);
    }
  });

  it.each([0o640, 0o604, 0o644, 0o660, 0o666, 0o620, 0o601])('is refused when group or others may use it (mode %s), saying how to fix it', (mode) => {
    const file = join(dir, `open-${mode.toString(8)}.key`);
    writeFileSync(file, KEY);
    chmodSync(file, mode);
    expect(() => loadSecretKey({ file, databaseUrl: 'sqlite::memory:' })).toThrow(
      `The webhook secret key file ${file} can be read or written by other users (mode 0${mode.toString(8)}): run chmod 600 ${file}`,
    );
  });

  it('is accepted at 0600 and 0400', () => {
    for (const mode of [0o600, 0o400]) {
      const file = join(dir, `closed-${mode.toString(8)}.key`);
      writeFileSync(file, KEY);
      chmodSync(file, mode);
      expect(loadSecretKey({ file, databaseUrl: 'sqlite::memory:' }).source).toBe(file);
    }
  });

  it("is refused when another user owns it (anyone who owns it can read it), saying how to fix it", () => {
    expect(keyFileProblem('/k', { mode: 0o100600, uid: 1001 }, 1000)).toBe(
      'The webhook secret key file /k is owned by another user (uid 1001, this process runs as uid 1000): run chown 1000 /k, or start the server as its owner',
    );
    expect(keyFileProblem('/k', { mode: 0o100600, uid: 1000 }, 1000)).toBeUndefined();
    // Where there are no user ids (Windows), only the mode is looked at (and there it says nothing).
    expect(keyFileProblem('/k', { mode: 0o100600, uid: 0 }, undefined)).toBeUndefined();
  });
});
