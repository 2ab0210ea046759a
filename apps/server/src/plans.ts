/**
 * Subscription plans and their customer limits. Plans are the operator's business, not the API contract:
 * the API only promises a 403 stating the limit, so they live here rather than in core.
 */
export const PLANS = {
  starter: 100,
  growth: 1_000,
  scale: 10_000,
} as const satisfies Record<string, number>;

export type PlanName = keyof typeof PLANS;

export const DEFAULT_PLAN: PlanName = 'starter';

export function isPlanName(value: string): value is PlanName {
  return Object.prototype.hasOwnProperty.call(PLANS, value);
}

/**
 * The number of customers a seller may have: its own override when set, else its plan's limit (an unknown
 * plan, e.g. one retired since, falls back to the default plan).
 *
 * @example
 * resolveCustomerLimit('growth', null); // 1000
 * resolveCustomerLimit('starter', 5); // 5
 */
export function resolveCustomerLimit(plan: string, override: number | null): number {
  if (override !== null) return override;
  return isPlanName(plan) ? PLANS[plan] : PLANS[DEFAULT_PLAN];
}
