// The server ships its PostgreSQL global setup as plain JavaScript (its declarations are in the ./testing entry).
declare module '@customers-api/server/testing/postgres-global-setup' {
  import type { TestProject } from 'vitest/node';
  export default function setup(project: TestProject): Promise<() => Promise<void>>;
}
