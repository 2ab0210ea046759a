import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, PLANS, isPlanName, resolveCustomerLimit } from './plans.js';

describe('plans', () => {
  it('uses the plan limit unless the seller has an override (0 included)', () => {
    expect(resolveCustomerLimit('growth', null)).toBe(PLANS.growth);
    expect(resolveCustomerLimit('growth', 3)).toBe(3);
    expect(resolveCustomerLimit('growth', 0)).toBe(0);
  });
  it('falls back to the default plan for an unknown plan name', () => {
    expect(resolveCustomerLimit('retired', null)).toBe(PLANS[DEFAULT_PLAN]);
    expect(isPlanName('retired')).toBe(false);
    expect(isPlanName('toString')).toBe(false);
  });
});
