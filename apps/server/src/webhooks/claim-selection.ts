// Which of a claim's candidates to take: the fairness rules of issue 23 applied to the few rows a claim reads
// (each visited endpoint's first due deliveries, webhooks/delivery-queue.ts), so they cost what the claim takes.

/** A delivery that may be claimed now: due, unleased, first of its customer at its endpoint (or out of order no more). */
export interface Candidate {
  id: number;
  endpointId: string;
  /** Whose slots it takes: its seller's of its mode (claim-plan.ts's lane), each with the seller's slot count. */
  sellerId: string;
  /** Its due time, in ms. */
  dueAt: number;
}

export interface SelectionInput {
  candidates: readonly Candidate[];
  /** Free slots of each visited endpoint: its slots less its attempts in flight (any process). */
  endpointFree: ReadonlyMap<string, number>;
  /** Free slots of each visited seller: its slots less its attempts in flight (any process). */
  sellerFree: ReadonlyMap<string, number>;
  limit: number;
}

const byDue = (a: Candidate, b: Candidate) => a.dueAt - b.dueAt || a.id - b.id;

/**
 * The ids to claim, in order: within every endpoint's and seller's free slots, the first due row of every seller
 * before the second of any (round robin across sellers, and across a seller's endpoints), oldest first within a
 * round, at most `limit`.
 *
 * @example
 * selectClaims({ candidates, endpointFree: new Map([[e, 4]]), sellerFree: new Map([[s, 8]]), limit: 16 });
 */
export function selectClaims({ candidates, endpointFree, sellerFree, limit }: SelectionInput): number[] {
  const byEndpoint = groupBy(candidates, (c) => c.endpointId);
  const open: { candidate: Candidate; endpointRank: number }[] = [];
  for (const [endpointId, rows] of byEndpoint) {
    const free = endpointFree.get(endpointId) ?? 0;
    rows.sort(byDue).forEach((candidate, index) => {
      if (index < free) open.push({ candidate, endpointRank: index + 1 });
    });
  }
  const ranked: { candidate: Candidate; sellerRank: number }[] = [];
  for (const [sellerId, rows] of groupBy(open, (o) => o.candidate.sellerId)) {
    const free = sellerFree.get(sellerId) ?? 0;
    rows.sort((a, b) => a.endpointRank - b.endpointRank || byDue(a.candidate, b.candidate));
    rows.forEach(({ candidate }, index) => {
      if (index < free) ranked.push({ candidate, sellerRank: index + 1 });
    });
  }
  ranked.sort((a, b) => a.sellerRank - b.sellerRank || byDue(a.candidate, b.candidate));
  return ranked.slice(0, Math.max(0, Math.floor(limit))).map((r) => r.candidate.id);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
