// The test/live switch and restricted keys in Chromium (issue 38): a restricted test key created with customers:read
// only and listed with its scopes in words; the switch to test data, marked on every page, showing test data only
// (keys, webhooks, activity), links keeping the mode; the wipe behind its confirm, with the counts. axe-core finds
// nothing on the key-creation states and the switched pages, and everything fits at 1280 and 390 px.
import { chromium, type Browser, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { expectFits, expectNoAxeViolations } from './browser-checks.js';
import { signedInPage } from './dashboard-test-helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

describe.each(['sqlite', 'postgres'] as const)('the test/live switch in Chromium, server on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
    database = await createTestDatabase(dialect);
    server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent' }, { print: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.dispose();
  });

  /** The public API with a key: what the seller's own servers do. */
  async function api(key: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
  }

  /** A seller with live and test data (a customer and an endpoint each), signed in on the keys page (live). */
  async function signedIn(viewport: { width: number; height: number }) {
    const seller = await createSeller(server.database, { name: 'Acme GmbH', plan: 'growth' });
    const live = await createApiKey(server.database, { sellerId: seller.id, name: 'Production server' });
    const test = await createApiKey(server.database, { sellerId: seller.id, name: 'Staging server', mode: 'test' });
    // Endpoints first: a change is an event only when an endpoint of its mode may receive it.
    await api(live.key, 'POST', '/api/webhook_endpoints', { url: 'https://crm.example.com/live-hooks' });
    await api(test.key, 'POST', '/api/webhook_endpoints', { url: 'https://crm.example.com/test-hooks' });
    await api(live.key, 'POST', '/api/customers', { first_name: 'Ada', last_name: 'Live', email: 'ada@live.example' });
    await api(test.key, 'POST', '/api/customers', { first_name: 'Ada', last_name: 'Test', email: 'ada@test.example' });
    return signedInPage(browser, server, seller.id, viewport);
  }

  const keyRow = (page: Page, name: string) => page.locator('#keys-body tr').filter({ has: page.locator('th').getByText(name, { exact: true }) });

  for (const viewport of VIEWPORTS) {
    const at = `at ${viewport.width} px`;
    it(`creates a restricted test key, switches to test data (marked, test data only) and wipes it, ${at}`, { timeout: 300_000 }, async () => {
      const { context, page } = await signedIn(viewport);
      try {
        // Live view: the switch says so, no banner, live keys only.
        await expect(page.locator('#mode-now').textContent()).resolves.toBe('Live data');
        expect(await page.locator('#test-banner').count()).toBe(0);
        expect(await page.locator('#keys-body th').allTextContents()).toEqual(['Production server']);
        await expect(keyRow(page, 'Production server').locator('td[data-label="Key"] .key-access').textContent()).resolves.toBe('Live Secret: full access');
        expect(await page.locator('#test-data').isHidden()).toBe(true);
        await expectNoAxeViolations(page, `keys, live ${at}`);
        await expectFits(page, `keys, live ${at}`);

        // The create form: live by default here; a restricted key shows one none/read/write row per resource.
        await page.getByRole('button', { name: 'Create key' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create a key' });
        await expect(dialog.getByRole('radio', { name: /Live data/ }).isChecked()).resolves.toBe(true);
        expect(await page.locator('#key-scopes').isHidden()).toBe(true);
        await expectNoAxeViolations(page, `create form, secret ${at}`);
        await dialog.getByLabel('Name').fill('Reporting job');
        await dialog.getByRole('radio', { name: /Test data/ }).check();
        await dialog.getByRole('radio', { name: /Restricted key/ }).check();
        const groups = dialog.getByRole('radiogroup');
        expect(await groups.evaluateAll((all) => all.map((g) => g.textContent?.replace(/\s+/g, ' ').trim()))).toEqual([
          'Customers None Read Write',
          'Webhook endpoints None Read Write',
          'Events None Read',
          'Test clock None Read Write',
        ]);
        await expectNoAxeViolations(page, `create form, restricted ${at}`);
        await expectFits(page, `create form, restricted ${at}`);
        // Nothing granted: refused at the permissions, nothing created.
        await dialog.getByRole('button', { name: 'Create key' }).click();
        await expect(page.locator('#key-scopes-error').textContent()).resolves.toBe('Choose read or write for at least one resource, or create a secret key.');
        await expect(page.locator('#key-scopes').getAttribute('aria-invalid')).resolves.toBe('true');
        await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('scope-customers-none');
        await expectNoAxeViolations(page, `create form, empty restricted key refused ${at}`);
        await dialog.getByRole('radiogroup', { name: 'Customers' }).getByRole('radio', { name: 'Read' }).check();
        await dialog.getByRole('button', { name: 'Create key' }).click();
        await page.locator('#new-key-title', { hasText: 'Key “Reporting job” created' }).waitFor();
        expect(await page.locator('#new-key-value').inputValue()).toMatch(/^rk_test_[A-Za-z0-9]{48}$/);
        await expect(page.locator('#new-key-overlap').textContent()).resolves.toBe('It is a test key: it is listed when viewing test data.');
        // Listed in the test view, not this one.
        expect(await page.locator('#keys-body th').allTextContents()).toEqual(['Production server']);
        await expectNoAxeViolations(page, `key created ${at}`);
        await expectFits(page, `key created ${at}`);

        // The switch: test data, marked, on the same page.
        await page.getByRole('button', { name: 'View test data' }).click();
        await page.waitForURL(/\/dashboard\/settings\/api-keys\?mode=test$/);
        await page.locator('#keys-body tr').first().waitFor();
        await expect(page.locator('#test-banner').textContent()).resolves.toContain('Viewing test data.');
        await expect(page.locator('#mode-now').textContent()).resolves.toBe('Test data');
        expect(await page.locator('#keys-body th').allTextContents()).toEqual(['Staging server', 'Reporting job']);
        await expect(keyRow(page, 'Reporting job').locator('td[data-label="Key"] .key-access').textContent()).resolves.toBe('Test Restricted: Customers (read)');
        await expect(keyRow(page, 'Staging server').locator('td[data-label="Key"] .key-access').textContent()).resolves.toBe('Test Secret: full access');
        await expectNoAxeViolations(page, `keys, test ${at}`);
        await expectFits(page, `keys, test ${at}`);

        // The nav keeps the mode: Webhooks shows the test endpoint only, and its page keeps the mode too.
        await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
        await page.waitForURL(/\/dashboard\/settings\/webhooks\?mode=test$/);
        const endpointLink = page.getByRole('link', { name: /crm\.example\.com\/test-hooks/ });
        await endpointLink.waitFor();
        expect(await page.getByText('crm.example.com/live-hooks').count()).toBe(0);
        await expect(page.locator('#test-banner').isVisible()).resolves.toBe(true);
        await expectNoAxeViolations(page, `webhooks, test ${at}`);
        await expectFits(page, `webhooks, test ${at}`);
        await endpointLink.click();
        await page.waitForURL(/\/dashboard\/settings\/webhooks\/[0-9a-f-]{36}\?mode=test$/);
        await page.locator('#endpoint-url', { hasText: 'test-hooks' }).waitFor();
        await expect(page.locator('#test-banner').isVisible()).resolves.toBe(true);
        await expectNoAxeViolations(page, `endpoint, test ${at}`);
        await expectFits(page, `endpoint, test ${at}`);

        // Activity in test mode, then back to the keys to wipe.
        await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
        await page.waitForURL(/\/dashboard\/settings\/activity\?mode=test$/);
        await expect(page.locator('#test-banner').isVisible()).resolves.toBe(true);
        await page.locator('#activity-body tr, #activity-empty:not([hidden])').first().waitFor();
        await expectNoAxeViolations(page, `activity, test ${at}`);
        await expectFits(page, `activity, test ${at}`);

        await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API Keys' }).click();
        await page.waitForURL(/\/dashboard\/settings\/api-keys\?mode=test$/);
        await page.getByRole('button', { name: 'Delete all test data' }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete all test data?' });
        await expectNoAxeViolations(page, `wipe confirm ${at}`);
        await confirm.getByRole('button', { name: 'Delete test data' }).click();
        // The answer comes over the network: wait for it, whatever the machine's speed.
        await page.locator('#wipe-result:not([hidden])').waitFor();
        await expect(page.locator('#wipe-result').textContent()).resolves.toBe('Test data deleted: 1 customer, 1 webhook endpoint and 1 event.');
        expect(await page.locator('#error').isHidden()).toBe(true);
        await expectFits(page, `wiped ${at}`);

        // Test endpoints are gone, live ones stay.
        await page.getByRole('button', { name: 'View live data' }).click();
        await page.waitForURL(/\/dashboard\/settings\/api-keys\?mode=live$/);
        expect(await page.locator('#test-banner').count()).toBe(0);
        await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
        await page.getByRole('link', { name: /crm\.example\.com\/live-hooks/ }).waitFor();
      } finally {
        await context.close();
      }
    });
  }
});
