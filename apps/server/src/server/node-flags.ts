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
