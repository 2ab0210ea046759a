import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { QueryObserver } from '../observability/query-observer.js';
import { connectDatabase, redactUrl } from './connect.js';

describe('connectDatabase', () => {
  it('opens a SQLite file in WAL mode with a busy timeout, creating its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'connect-test-'));
    const handle = connectDatabase(`sqlite:${join(dir, 'nested', 'x.db')}`);
    try {
      expect(handle.dialect).toBe('sqlite');
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const timeout = await sql<{ timeout: number }>`pragma busy_timeout`.execute(handle.db);
      expect(timeout.rows[0]?.timeout).toBe(5000);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates the database, its WAL and shared-memory files 0600 and its folder 0700, whatever the umask', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'connect-test-'));
    const previous = process.umask(0o022);
    try {
      const file = join(dir, 'data', 'x.db');
      const handle = connectDatabase(`sqlite:${file}`);
      await sql`create table t (x integer)`.execute(handle.db);
      await sql`insert into t values (1)`.execute(handle.db);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(path), path).toBe(true);
        expect((statSync(path).mode & 0o777).toString(8), path).toBe('600');
      }
      expect((statSync(join(dir, 'data')).mode & 0o777).toString(8)).toBe('700');
      await handle.close();
      // A file that already exists keeps the mode its operator gave it.
      const existing = join(dir, 'existing.db');
      writeFileSync(existing, '', { mode: 0o640 });
      const again = connectDatabase(`sqlite:${existing}`);
      await again.close();
      expect((statSync(existing).mode & 0o777).toString(8)).toBe('640');
    } finally {
      process.umask(previous);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('commits durably (synchronous FULL) unless the faster NORMAL is asked for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'connect-test-'));
    const modes = [[undefined, 2], ['full', 2], ['normal', 1]] as const;
    try {
      for (const [sqliteSynchronous, expected] of modes) {
        const handle = connectDatabase(`sqlite:${join(dir, 'x.db')}`, sqliteSynchronous ? { sqliteSynchronous } : {});
        const mode = await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db);
        await handle.close();
        expect(mode.rows[0]?.synchronous, String(sqliteSynchronous)).toBe(expected);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects other URLs with a message that shows the accepted forms and hides passwords', () => {
    expect(() => connectDatabase('mysql://u:secret@h/db')).toThrow(/use sqlite:<path> or postgres:\/\//);
    expect(() => connectDatabase('mysql://u:secret@h/db')).not.toThrow(/secret/);
    expect(() => connectDatabase('sqlite:')).toThrow(/needs a file path/);
  });

  it('removes the user and password of a connection URL', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/customers')).toBe('postgres://db:5432/customers');
    expect(redactUrl('postgres://db/customers')).toBe('postgres://db/customers');
  });

  it("times every SQLite run with an observer's timer (failed runs too), and calls the observer itself when it has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'connect-test-'));
    const timed: string[] = [];
    const seen: string[] = [];
    const timing: QueryObserver = () => () => seen.push('timing observer called');
    timing.timer = ({ operation }) => (seconds) => timed.push(`${operation} ${seconds >= 0}`);
    const plain: QueryObserver = ({ operation }) => (error) => seen.push(`${operation} ${error ? 'failed' : 'ok'}`);
    const withTimer = connectDatabase(`sqlite:${join(dir, 'a.db')}`, { observer: timing });
    const withoutTimer = connectDatabase(`sqlite:${join(dir, 'b.db')}`, { observer: plain });
    try {
      for (const handle of [withTimer, withoutTimer]) {
        handle.writeRun!('create table t (x integer primary key)', []);
        handle.writeRun!('insert into t values (1)', []);
        expect(() => handle.writeRun!('insert into t values (1)', [])).toThrow(/UNIQUE/);
        expect(handle.readCommitted!('select x from t', [])).toEqual([{ x: 1 }]);
      }
      expect(timed).toEqual(['OTHER true', 'INSERT true', 'INSERT true', 'SELECT true']);
      expect(seen).toEqual(['OTHER ok', 'INSERT ok', 'INSERT failed', 'SELECT ok']);
    } finally {
      await withTimer.close();
      await withoutTimer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
