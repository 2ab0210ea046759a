/** The most of a request body the journal keeps; a longer one is kept as its first 8 KiB of text, marked truncated. */
export const JOURNAL_BODY_LIMIT_BYTES = 8192;

/** Methods whose body the API never reads (openapi.yaml): the journal never keeps it either. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE']);

/** A body as the journal holds it: text (cheap to count and to keep), parsed again on every read. */
export interface HeldBody {
  text: string;
  /** Whether `text` parsed as JSON when recorded (then a read hands out the parsed value). */
  json: boolean;
  truncated: boolean;
}

const decoder = new TextDecoder();

/**
 * What the journal keeps of a body: nothing for an empty one or for GET, HEAD and DELETE; else at most
 * {@link JOURNAL_BODY_LIMIT_BYTES} of its text. Text, not the parsed value: 8 KiB of `[{},{},…]` parsed is
 * thousands of objects, ten times its size in memory.
 *
 * @example
 * holdBody('POST', new TextEncoder().encode('{"a":1}')); // { text: '{"a":1}', json: true, truncated: false }
 */
export function holdBody(method: string, bytes: Uint8Array | null): HeldBody | null {
  if (!bytes || bytes.byteLength === 0 || BODILESS.has(method.toUpperCase())) return null;
  const truncated = bytes.byteLength > JOURNAL_BODY_LIMIT_BYTES;
  const text = decoder.decode(truncated ? bytes.subarray(0, JOURNAL_BODY_LIMIT_BYTES) : bytes);
  return { text, json: !truncated && parses(text), truncated };
}

/** The body as a journal entry shows it: the parsed JSON, else the (possibly truncated) text; null when none. */
export function shownBody(held: HeldBody | null): unknown {
  if (!held) return null;
  return held.json ? (JSON.parse(held.text) as unknown) : held.text;
}

/**
 * A request body as the journal shows it: the parsed JSON, else its text (the first 8 KiB when longer); null when empty.
 *
 * @example
 * journalBody(new TextEncoder().encode('{"a":1}')); // { a: 1 }
 */
export function journalBody(bytes: Uint8Array | null): unknown {
  // Stryker disable next-line StringLiteral: any method that is not GET, HEAD or DELETE keeps its body alike
  return shownBody(holdBody('POST', bytes));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
