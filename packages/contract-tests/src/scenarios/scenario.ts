import type { Target } from '../targets/target.js';
import type { Outcome } from '../support/sdk.js';
import type { Transcript } from '../support/transcript.js';

/** A behaviour of the contract, written once and run against every target that can honour it. */
export interface Scenario {
  name: string;
  /**
   * True when a stateless mock (Prism, answering from examples) can honour it: the scenario then asserts only
   * statuses (the conformance check still validates every body). Selected explicitly, never by failure.
   */
  stateless?: boolean;
  /**
   * True when every request it sends is valid by openapi.yaml: Prism's validation proxy forwards only those
   * (it answers invalid ones itself with an undocumented 422, and never answers malformed JSON).
   */
  validRequestsOnly?: boolean;
  /**
   * True when it makes its own keys of both modes (a seller's `key` is its live key): the test-mode pass, where
   * every seller's `key` is a test key, leaves it out.
   */
  ownKeyModes?: boolean;
  run(target: Target, transcript: Transcript): Promise<void>;
}

/** Records an outcome in the transcript under a label and hands it back. */
export function step<T extends Outcome>(transcript: Transcript, label: string, result: T): T {
  transcript.record(label, result.status, result.body);
  return result;
}

export const ada = (suffix = Math.random().toString(36).slice(2, 10)) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: `ada.${suffix}@example.com`,
});
