import { Writable } from 'node:stream';

/** Every API key this test file issued, and every log line of every server it started (in process or not). */
const issuedKeys = new Set<string>();
const lines: string[] = [];

export const rememberKey = (key: string): string => {
  issuedKeys.add(key);
  return key;
};

export const recordLog = (chunk: string | Buffer): void => {
  lines.push(chunk.toString());
};

/** Every key issued so far in this test file. */
export const issuedKeyList = (): string[] => [...issuedKeys];

/** A writable stream for pino (in-process servers) or a child's stdout/stderr. */
export const logSink = (): Writable =>
  new Writable({
    write(chunk, _encoding, done) {
      recordLog(chunk as Buffer);
      done();
    },
  });

/** The keys that appear in any captured log line (should be none), and how much was scanned. */
export function leakedKeys(): { leaked: string[]; keys: number; lines: number } {
  const text = lines.join('');
  const leaked = [...issuedKeys].filter((key) => text.includes(key) || text.includes(key.slice('sk_live_'.length)));
  return { leaked, keys: issuedKeys.size, lines: text.split('\n').length - 1 };
}
