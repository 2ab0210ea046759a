// The reference server as an operator starts it (startServer: migrate, listen, pino logs on stdout), from its
// build. Plain JavaScript (no tsx loader in the process), so its memory and speed are the server's own; Node runs
// with the server's SERVER_NODE_FLAGS (run-benchmarks.ts passes them, as the server's bin does).
process.once('message', async ({ databaseUrl, logLevel, module, sqliteSynchronous, rateLimit, redisUrl, postgresPoolSize, metrics, otelEndpoint }) => {
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
  };
  const server = await startServer(config, { print: () => {} });
  process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
  process.send({ url: server.url });
});
