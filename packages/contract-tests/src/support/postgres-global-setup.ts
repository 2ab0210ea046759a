// The server's own PostgreSQL global setup: one embedded PostgreSQL (or DATABASE_URL) for the whole run.
export { default } from '@customers-api/server/testing/postgres-global-setup';
