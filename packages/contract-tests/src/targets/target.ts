import type { ConformanceLog } from '../conformance/checked-fetch.js';

export interface TargetSeller {
  sellerId: string;
  key: string;
  /** The key's id where the target has one (the server). */
  keyId?: string;
}

/** One implementation of openapi.yaml that the scenarios run against. */
export interface Target {
  name: string;
  /** False for Prism: it answers from examples and remembers nothing. */
  stateful: boolean;
  baseUrl: string;
  /** fetch that validates every response against openapi.yaml and records it in `log`. */
  fetch: typeof fetch;
  log: ConformanceLog;
  /** A new seller with one API key; `customerLimit` overrides the plan limit. */
  newSeller(options?: { customerLimit?: number }): Promise<TargetSeller>;
  /**
   * Another key of the seller (issue 38): a restricted key (`rk_`) holding exactly `scopes`, live unless `mode`
   * says test. Undefined on a target that keeps no keys (Prism).
   */
  restrictedKey?(seller: TargetSeller, scopes: readonly string[], mode?: 'live' | 'test'): Promise<string>;
  /**
   * The same seller with a secret test key (`sk_test_`, issue 38) instead: requests with it act on the seller's test
   * data. Undefined on a target that keeps no keys (Prism).
   */
  testKey?(seller: TargetSeller): Promise<TargetSeller>;
  /** How many test-mode customers the seller has in storage (read directly), where the target can tell. */
  countTestCustomers?(sellerId: string): Promise<number>;
  /** Revokes the seller's key: refused from the next request on. */
  revokeKey(seller: TargetSeller): Promise<void>;
  /** How many customers the seller has in storage (read directly, not through the API). */
  countCustomers(sellerId: string): Promise<number>;
  close(): Promise<void>;
}
