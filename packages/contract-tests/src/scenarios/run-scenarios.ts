import { it } from 'vitest';
import type { Target } from '../targets/target.js';
import { Transcript } from '../support/transcript.js';
import type { Scenario } from './scenario.js';

/** Registers one vitest test per scenario against a target started elsewhere (beforeAll); returns the transcripts. */
export function runScenarios(scenarios: Scenario[], target: () => Target): Map<string, Transcript> {
  const transcripts = new Map<string, Transcript>();
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const transcript = new Transcript();
      transcripts.set(scenario.name, transcript);
      await scenario.run(target(), transcript);
    });
  }
  return transcripts;
}
