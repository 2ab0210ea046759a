import { edgeScenarios } from './edges.js';
import { listScenarios } from './list.js';
import { statefulScenarios } from './stateful.js';
import { statelessScenarios } from './stateless.js';
import { testClockScenarios } from './test-clock.js';
import { versionScenarios } from './versions.js';
import { webhookScenarios } from './webhooks.js';

export { runScenarios } from './run-scenarios.js';
export type { Scenario } from './scenario.js';

/** Every scenario; the stateless ones first. */
export const scenarios = [...statelessScenarios, ...statefulScenarios, ...listScenarios, ...versionScenarios, ...webhookScenarios, ...testClockScenarios, ...edgeScenarios];
/** Only those a stateless mock can honour (Prism), chosen by their `stateless` flag. */
export const statelessOnly = scenarios.filter((scenario) => scenario.stateless === true);
/** Only those whose every request is valid by openapi.yaml (what Prism's validation proxy forwards). */
export const validRequestsOnly = scenarios.filter((scenario) => scenario.validRequestsOnly === true);
