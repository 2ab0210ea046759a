/** What a load generator needs to address a seeded table: each seller's key and some of its customer ids. */
export interface Fixture {
  sellers: Array<{ key: string; ids: string[] }>;
}

/** At most this many ids per seller are handed to the load generator (picked evenly across the table). */
export const IDS_PER_SELLER = 5_000;

/** Every `step`-th id, so a sample spans the whole table. */
export function sampleIds(ids: string[], max = IDS_PER_SELLER): string[] {
  if (ids.length <= max) return ids;
  const step = ids.length / max;
  return Array.from({ length: max }, (_, i) => ids[Math.floor(i * step)]!);
}
