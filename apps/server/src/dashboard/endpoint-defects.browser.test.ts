// Defects of an endpoint's page a seller noticed (issue 39, point 5), each shown in Chromium against a real server
// on SQLite and PostgreSQL: "Resend all failed" says how many and is not a red button; the first delivery is a few
// Tab stops away; at 390 px the page with a full page of deliveries stays short.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CustomersClient } from '@customers-api/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { createSecretBox } from '../webhooks/secret-box.js';
import { expectFits, expectNoAxeViolations, launchChromium } from './browser-checks.js';
import { createLoginLink, loginLinkUrl } from './login-links.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../test-results');

/** Deliveries on the page: a full page of the list is 50. */
const DELIVERIES = 50;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

describe.each(['sqlite', 'postgres'] as const)("an endpoint's page, defects, server on %s", (dialect) => {
  // The worker's clock stands still 10 minutes ahead: first attempts go out at once, no retry comes due.
  const workerNow = Date.now() + 600_000;
  let server: TestServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let endpointUrl = '';
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, clock: { now: () => workerNow } },
    });
    receiver = await startWebhookReceiver();
    receiver.answerWith(() => ({ status: 500, headers: { 'x-trace-id': 'trace-abc-123', 'set-cookie': 'session=very-secret' }, body: '{"error":"database is down"}' }));
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const seller = await createSeller(server.handle, { name: 'Acme Growth GmbH', plan: 'growth' });
    const { key } = await createApiKey(server.handle, { sellerId: seller.id, name: 'Checkout server' });
    await page.goto(loginLinkUrl(server.url, (await createLoginLink(server.handle, seller.id)).token));
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL(/\/dashboard\/settings\//);
    await page.goto(`${server.url}/dashboard/settings/webhooks`);
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });
    const sdk = new CustomersClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    for (let i = 0; i < DELIVERIES; i++) await sdk.customers.create({ first_name: `Customer${i}`, last_name: 'L', email: `c${i}@example.com` });
    await receiver.waitUntil((all) => all.length >= DELIVERIES);
    const listed = (await (await page.request.get(`${server.url}/dashboard/api/webhooks`)).json()) as { endpoints: { id: string }[] };
    endpointUrl = `${server.url}/dashboard/settings/webhooks/${listed.endpoints[0]!.id}`;
    await page.goto(endpointUrl);
    // Disabled and enabled again: every retrying delivery is given up (failed), ready for "Resend all failed".
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable endpoint' }).click();
    await page.locator('#state-badge', { hasText: /^Disabled$/ }).waitFor();
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('#state-badge', { hasText: /^(Active|Failing)$/ }).waitFor();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  it('"Resend all failed" says how many it will send, on a button that is not red', async () => {
    await page.goto(endpointUrl);
    await page.locator('#deliveries-body tr').first().waitFor();
    await page.getByRole('button', { name: 'Resend all failed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toBe(`Resend ${DELIVERIES} failed deliveries?`);
    const confirm = dialog.getByRole('button', { name: `Resend ${DELIVERIES} failed deliveries` });
    const color = await confirm.evaluate((node) => getComputedStyle(node).color);
    const danger = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--danger').trim());
    expect(await confirm.getAttribute('class')).not.toContain('button-danger');
    expect(color).not.toBe(danger);
    await expectNoAxeViolations(page, 'resend all failed, confirming');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
  });

  it('reaches the first delivery within 5 Tab stops (through skip links)', async () => {
    await page.goto(endpointUrl);
    await page.locator('#deliveries-body tr').first().waitFor();
    let tabs = 0;
    const inDeliveries = () => page.evaluate(() => document.activeElement?.closest('#deliveries-body') !== null && document.activeElement?.tagName === 'A');
    while (!(await inDeliveries()) && tabs < 30) {
      await page.keyboard.press('Tab');
      tabs++;
      const text = await page.evaluate(() => (document.activeElement?.tagName === 'A' ? document.activeElement.textContent : null));
      if (text === 'Skip to content' || text === 'Skip to deliveries') await page.keyboard.press('Enter');
    }
    expect(await inDeliveries()).toBe(true);
    expect(tabs).toBeLessThanOrEqual(5);
  });

  it("shows an attempt's response headers in the delivery detail, credentials redacted", async () => {
    await page.goto(endpointUrl);
    await page.locator('#deliveries-body tr').first().getByRole('link').click();
    await page.locator('#detail').waitFor({ state: 'visible' });
    const headers = page.locator('#detail-attempts li').first().getByRole('definition');
    await headers.first().waitFor();
    const shown = await page.locator('#detail-attempts li').first().locator('dl').textContent();
    expect(shown).toContain('x-trace-id');
    expect(shown).toContain('trace-abc-123');
    expect(shown).toContain('set-cookie[redacted]');
    expect(await page.content()).not.toContain('very-secret');
    await expectNoAxeViolations(page, 'delivery detail with response headers');
    await expectFits(page, 'delivery detail with response headers');
    expect(problems).toEqual([]);
  });

  it('stays short at 390 px with a full page of deliveries listed', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(endpointUrl);
    await page.locator('#deliveries-body tr').first().waitFor();
    const rows = await page.locator('#deliveries-body tr').count();
    expect(rows).toBeGreaterThanOrEqual(20);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`endpoint page at 390 px with ${rows} deliveries listed: ${height} px tall`);
    await page.screenshot({ path: join(ARTIFACTS, `endpoint-390px-${dialect}.png`), fullPage: true });
    expect(height).toBeLessThan(5_000);
    await expectFits(page, 'endpoint page at 390 px');
    await expectNoAxeViolations(page, 'endpoint page at 390 px');
    await page.setViewportSize(DESKTOP);
    expect(problems).toEqual([]);
  });
});
