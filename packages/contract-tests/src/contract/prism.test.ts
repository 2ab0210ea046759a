import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedFetch, createConformanceLog } from '../conformance/checked-fetch.js';
import { createResponseValidator } from '../conformance/response-validator.js';
import { statelessOnly, runScenarios } from '../scenarios/index.js';
import { startPrism, type PrismProcess } from '../targets/prism.js';
import type { Target } from '../targets/target.js';

// Prism answers from the examples of openapi.yaml and remembers nothing: only the scenarios flagged
// `stateless: true` run here (selected by that flag, never by their outcome).
const log = createConformanceLog();
let prism: PrismProcess;
let target: Target;

const randomKey = () => `sk_live_${randomBytes(36).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(48, 'x').slice(0, 48)}`;

beforeAll(async () => {
  prism = await startPrism({ mock: true });
  target = {
    name: 'prism mock',
    stateful: false,
    baseUrl: prism.url,
    fetch: checkedFetch(createResponseValidator(), log),
    log,
    newSeller: async () => ({ sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', key: randomKey() }),
    revokeKey: async () => {
      throw new Error('Prism keeps no keys');
    },
    countCustomers: async () => {
      throw new Error('Prism stores nothing');
    },
    close: () => prism.stop(),
  };
});
afterAll(async () => {
  await prism?.stop();
});

describe('Prism mock: the stateless scenarios', () => {
  it('selects at least the lifecycle, auth and validation scenarios', () => {
    expect(statelessOnly.length).toBeGreaterThanOrEqual(5);
  });

  runScenarios(statelessOnly, () => target);

  it('every Prism response matched openapi.yaml', () => {
    console.log(`[conformance] prism mock: ${statelessOnly.length} stateless scenarios, ${log.seen.size} operation × status pairs seen, ${log.violations.length} violations`);
    expect(log.violations).toEqual([]);
  });
});
