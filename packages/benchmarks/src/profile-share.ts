import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (node --cpu-prof) read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The functions of the API version machinery on a request of the latest version: the server's onRequest hook
 * (core's header rule and the response header it sets), the pin check after authentication, and core's lookups.
 */
export const VERSION_MACHINERY = ['applyApiVersion', 'pinnedVersion', 'resolveApiVersion', 'apiVersionHeaders', 'changesFor', 'headersFor'];

/**
 * Where the time under a hook stops being the hook's: Fastify's hook runner `next`, which the hook's `done()`
 * calls and which runs the following hooks and the handler synchronously, inside the hook's stack.
 */
export const HOOK_CONTINUATION = ['next'];

/**
 * The share of a process's CPU spent inside any of `functions` (their own time and everything they call, up to a
 * `continuation` frame: what runs below one is not theirs), from its V8 CPU profile: sampled time whose stack,
 * read from the leaf up, meets one of `functions` before any `continuation`, over all sampled time but idle.
 *
 * @example
 * profileShare(JSON.parse(readFileSync(file, 'utf8')), VERSION_MACHINERY, HOOK_CONTINUATION); // 0.012
 */
export function profileShare(profile: CpuProfile, functions: readonly string[], continuation: readonly string[] = []): number {
  const { spent, busy } = profileTime(profile, functions, continuation);
  return busy === 0 ? Number.NaN : spent / busy;
}

/** The sampled time (µs) inside `functions` and all sampled time but idle: {@link profileShare}'s two sums. */
function profileTime(profile: CpuProfile, functions: readonly string[], continuation: readonly string[]): { spent: number; busy: number } {
  const wanted = new Set(functions);
  const stops = new Set(continuation);
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // Whether a node or any of its callers is one of `functions`, memoized per node.
  const inside = new Map<number, boolean>();
  const isInside = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const name = node.callFrame.functionName;
    const result = wanted.has(name) || (!stops.has(name) && up !== undefined && isInside(up));
    inside.set(id, result);
    return result;
  };
  let busy = 0;
  let spent = 0;
  profile.samples.forEach((id, index) => {
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    // A sample's weight is the time to the next one (V8 writes the delta before each sample).
    const weight = profile.timeDeltas[index + 1] ?? 0;
    busy += weight;
    if (isInside(id)) spent += weight;
  });
  return { spent, busy };
}

/**
 * {@link profileShare} over every profile in `dir` together (the profiled server writes one per measured round;
 * `node --cpu-prof --cpu-prof-dir=dir` one per process): the time inside `functions` in all of them over all their
 * busy time. NaN when there is none.
 */
export function profileShareIn(dir: string, functions: readonly string[], continuation: readonly string[] = []): number {
  let spent = 0;
  let busy = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const time = profileTime(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, functions, continuation);
    spent += time.spent;
    busy += time.busy;
  }
  return busy === 0 ? Number.NaN : spent / busy;
}
