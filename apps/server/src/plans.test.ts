import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, PLANS, isPlanName, resolveCustomerLimit } from './plans.js';

describe('plans', () => {
  it('has the documented plans and limits, starter by default', () => {
    expect(PLANS).toEqual({ starter: 100, growth: 1_000, scale: 10_000 });
    expect(DEFAULT_PLAN).toBe('starter');
  });
  it('uses the plan limit unless the seller has an override (0 included)', () => {
    expect(resolveCustomerLimit('growth', null)).toBe(1_000);
    expect(resolveCustomerLimit('scale', null)).toBe(10_000);
    expect(resolveCustomerLimit('growth', 3)).toBe(3);
    expect(resolveCustomerLimit('growth', 0)).toBe(0);
  });
  it('falls back to the default plan for an unknown plan name', () => {
    expect(resolveCustomerLimit('retired', null)).toBe(100);
    expect(resolveCustomerLimit('toString', null)).toBe(100);
    expect(isPlanName('retired')).toBe(false);
    expect(isPlanName('toString')).toBe(false);
  });
});
