import { POSTGRES_LOADS, SQLITE_FLOOR_LOADS, type BenchReport } from './run-benchmarks.js';

/** A server row and the floor it is measured against, with its throughput over the floor's (per round, median). */
interface FloorPair {
  server: string;
  floor: string;
  ratio: number;
}

function pairsOf(report: BenchReport): FloorPair[] {
  return [
    ...SQLITE_FLOOR_LOADS.map((load) => ({ server: `sqlite-${load}`, floor: `floor-${load}`, ratio: report.sqliteOverFloor[load] })),
    ...POSTGRES_LOADS.map((load) => ({ server: `postgres-${load}`, floor: `floor-pg-${load}`, ratio: report.postgresOverFloor[load] })),
    { server: 'sqlite-get-ratelimit-redis', floor: 'floor-get-redis', ratio: report.redisLimitedOverFloor },
  ];
}

/**
 * Issue 41: a floor is the least work its request needs, so a server row faster than its floor means the floor does
 * work the server has found a way to skip. One message per server row above 100% of its floor, naming both rows;
 * none when every pair is at or below it (pairs not measured in this run have no ratio and are skipped).
 *
 * @example
 * for (const message of serversAboveFloors(report)) console.error(message);
 */
export function serversAboveFloors(report: BenchReport): string[] {
  const labelOf = (id: string) => report.rows.find((row) => row.id === id)?.label ?? id;
  return pairsOf(report)
    .filter(({ ratio }) => ratio > 1)
    .map(
      ({ server, floor, ratio }) =>
        `${server} (${labelOf(server)}) is at ${(ratio * 100).toFixed(0)}% of its floor ${floor} (${labelOf(floor)}): ` +
        'the floor does work the server skips; make the floor do only what the request needs',
    );
}
