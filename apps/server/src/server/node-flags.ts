/**
 * The Node flags the server runs with (the `customers-api-server` bin's shebang and `pnpm start` pass them; a
 * process that embeds `startServer` should too, e.g. `NODE_OPTIONS=--max-semi-space-size=4`).
 *
 * `--max-semi-space-size=4` caps V8's young generation at two 4 MB semi-spaces instead of Node 20's 16 MB each.
 * Under load V8 grows them to the maximum and keeps both resident: measured (issue 28, `pnpm bench`), the cap
 * takes about 20 MB off the server's peak RSS (SQLite GET/POST 139-142 → 117-118 MB; a request's garbage is
 * short-lived, so the scavenges it adds are small).
 * V8 reads it only when the process starts (`v8.setFlagsFromString` later has no effect), so it is a start flag.
 * `--optimize-for-size` was measured too and not taken: it also kept the tracing rows' old generation small, but
 * cost 35-45% more CPU per request.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/**
 * The V8 flags the server sets on itself when traces are on (observability/tracing.ts, `v8.setFlagsFromString`).
 *
 * `--heap-growing-percent=25`: after each full GC, V8 lets the old generation grow to at most 1.25× what survived
 * instead of up to 4×. With traces on, spans wait for their export batch long enough to be promoted, so the old
 * generation fills with garbage that only a full GC frees: measured (issue 28), 27-32 MB live after a full GC but
 * a 93 MB old generation, and the tracing rows' peak RSS 200-241 MB against 117-149 MB without traces. V8 reads
 * this flag at each full GC, so setting it at run time works (node-flags.test.ts checks that it does), and only
 * a process that traces pays the extra full GCs. Taking it at start for every process was not measured apart.
 * 50 left the quiet full bench at 154/155 MB; 25 gave 139-143 MB in the same tracing rows (session 8).
 */
export const TRACING_V8_FLAGS: readonly string[] = ['--heap-growing-percent=25'];
