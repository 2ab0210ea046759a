// The reference server as an operator starts it (startServer: migrate, listen, pino logs on stdout), from its
// build. Plain JavaScript (no tsx loader in the process), so its memory and speed are the server's own; Node runs
// with the server's SERVER_NODE_FLAGS (run-benchmarks.ts passes them, as the server's bin does).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

process.once('message', async ({ databaseUrl, logLevel, module, sqliteSynchronous, rateLimit, redisUrl, postgresPoolSize, metrics, otelEndpoint, profileDir, requestLogs, allowPrivateWebhooks }) => {
  // The observability scenarios: traces to a local collector are configured like an operator would, by OTEL_*.
  if (otelEndpoint) Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: otelEndpoint, OTEL_SERVICE_NAME: 'customers-api-bench' });
  // `module`: another build of the server (BENCH_BEFORE, for before/after comparisons in one run).
  const { startServer } = await import(module ?? '@customers-api/server');
  // `sqliteSynchronous`: 'normal' measures the current server in the durability mode older builds ran in.
  // Rate limiting is off (0) unless the scenario measures it: the load's sellers would run into the default.
  const config = {
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    logLevel,
    rateLimit: rateLimit ?? 0,
    ...(redisUrl && { redisUrl }),
    ...(sqliteSynchronous && { sqliteSynchronous }),
    // PostgreSQL connections of this process (the pool-size scenarios); the server's default otherwise.
    ...(postgresPoolSize && { postgresPoolSize }),
    // Prometheus metrics on a listener of their own (nobody scrapes it: the cost of counting alone).
    ...(metrics && { metricsPort: 0 }),
    // `requestLogs: false`: the sellers' request logs off (`serve --request-logs off`); on by default.
    ...(requestLogs === false && { requestLogs: false }),
    // The backlog rows deliver to receivers on loopback (a black hole, a 204 one).
    ...(allowPrivateWebhooks && { allowPrivateWebhooks: true }),
  };
  const server = await startServer(config, { print: () => {} });
  process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
  // `profileDir`: V8 CPU profiles of the measured load only, one file per round, each answered when done.
  if (profileDir) answerProfiling(profileDir);
  process.send({ url: server.url });
});

/**
 * `{ profile: 'start' }` starts V8's CPU profiler (the one `node --cpu-prof` uses, same 1 ms interval);
 * `{ profile: 'stop' }` writes what it sampled since into `dir`. A profile of the whole process life would hold
 * every idle millisecond between its rounds too: about 1.8 MB of samples a minute (measured, issue 28).
 */
function answerProfiling(dir) {
  const session = new Session();
  session.connect();
  let round = 0;
  process.on('message', async ({ profile }) => {
    if (profile === 'start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 1000 });
      await session.post('Profiler.start');
    } else if (profile === 'stop') {
      const { profile: result } = await session.post('Profiler.stop');
      await session.post('Profiler.disable');
      writeFileSync(join(dir, `round-${++round}.cpuprofile`), JSON.stringify(result));
    } else return;
    process.send({ profiled: profile });
  });
}
