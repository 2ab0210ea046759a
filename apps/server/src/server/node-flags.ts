/**
 * The Node flags the server runs with (the `customers-api-server` bin's shebang and `pnpm start` pass them; a
 * process that embeds `startServer` should too, e.g. `NODE_OPTIONS=--max-semi-space-size=4`).
 *
 * `--max-semi-space-size=4` caps V8's young generation at two 4 MB semi-spaces instead of Node 20's 16 MB each.
 * Under load V8 grows them to the maximum and keeps both resident: measured (issue 28, `pnpm bench`), the cap
 * takes 15-20 MB off the server's peak RSS (a request's garbage is short-lived, so the scavenges it adds are small).
 * V8 reads it only when the process starts (`v8.setFlagsFromString` later has no effect), so it is a start flag.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
