// The Activity page in a real browser (Debian's Chromium, driven by playwright-core) against a real server started
// like `cli serve`: sign in with the printed link, make a change, read it back at desktop and phone widths.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { writeAuditRow } from '../audit/audit-log.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { expectFits, expectNoAxeViolations, launchChromium } from './browser-checks.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../test-results');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

describe.each(['sqlite', 'postgres'] as const)('the Activity page in Chromium, server on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let banner = '';
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent' }, { print: (text) => (banner += text) });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.setDefaultTimeout(10_000);
    // Any CSP violation, script error or failed asset shows up here.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.dispose();
  });

  // By the row's header cell's text (at phone width the table is laid out as cards, without table roles).
  const row = (action: string) => page.locator('#activity-body tr').filter({ has: page.locator('th').getByText(action, { exact: true }) }).first();

  it('lists the seller\'s sign-in and changes, newest first, at desktop and phone widths', async () => {
    const link = /(http:\/\/\S+\/dashboard\/login\?token=\S+)/.exec(banner)?.[1];
    expect(link, banner).toBeDefined();
    await page.goto(link!);
    // No session yet: the link asks for a click before it signs in (no sign-in CSRF).
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/api-keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Audited key');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key').waitFor();

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/activity`);
    await row('API key created').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Activity');
    const actions = await page.locator('#activity-body th').allTextContents();
    // The demo account's own rows (made by the server on first start) come first in time.
    expect(actions).toEqual(['API key created', 'Signed in', 'Sign-in link issued', 'API key created', 'Account created']);
    expect(await row('Account created').locator('[data-label="By"]').textContent()).toBe('The server');
    expect(await row('Signed in').locator('[data-label="From"]').textContent()).toBe('127.0.0.1');
    expect(await row('API key created').locator('[data-label="By"]').textContent()).toMatch(/^Dashboard session [0-9a-f]{8}$/);
    expect(await row('Signed in').locator('[data-label="By"]').textContent()).toBe(await row('API key created').locator('[data-label="By"]').textContent());
    // The key by its name (issue 35), not its id.
    expect(await row('API key created').locator('[data-label="Object"]').textContent()).toBe('API key Audited key');
    expect(await page.locator('#activity-table thead').isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `activity-${dialect}-desktop.png`), fullPage: true });

    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Rows become cards: the header row is hidden, each cell says what it is.
    expect(await page.locator('#activity-table thead').boundingBox()).toEqual(expect.objectContaining({ width: 1, height: 1 }));
    const target = await row('API key created').locator('[data-label="Object"]').boundingBox();
    expect(target!.x + target!.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(ARTIFACTS, `activity-${dialect}-390px.png`), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('names every action in words and each object by its kind and a short id, never a bare UUID', async () => {
    await page.setViewportSize(DESKTOP);
    const endpointId = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const keyId = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const handle = await database.open();
    try {
      const { id: sellerId } = await handle.db.selectFrom('sellers').select('id').executeTakeFirstOrThrow();
      await writeAuditRow(handle.db, CLI_ACTOR, { sellerId, action: 'webhook_endpoint.enabled', targetId: endpointId }, new Date());
      await writeAuditRow(handle.db, CLI_ACTOR, { sellerId, action: 'api_key.revoked', targetId: keyId }, new Date());
    } finally {
      await handle.close();
    }
    await page.reload();
    await row('Webhook endpoint enabled').waitFor();
    const endpoint = row('Webhook endpoint enabled').locator('[data-label="Object"]');
    expect(await endpoint.textContent()).toBe('Endpoint 7c1d2e3f…');
    expect(await endpoint.getByRole('link').getAttribute('href')).toBe(`/dashboard/settings/webhooks/${endpointId}`);
    expect(await row('API key revoked').locator('[data-label="Object"]').textContent()).toBe('API key 0a1b2c3d…');
    const texts = await page.locator('#activity-body').evaluate((body) => body.textContent ?? '');
    expect(texts).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(texts).not.toContain('webhook_endpoint.');
    await expectNoAxeViolations(page, 'activity objects');
    expect(problems).toEqual([]);
  });

  it('shows 100 rows, then older ones a page at a time until there are none', async () => {
    await page.setViewportSize(DESKTOP);
    const handle = await database.open();
    try {
      const { id: sellerId } = await handle.db.selectFrom('sellers').select('id').executeTakeFirstOrThrow();
      for (let i = 0; i < 150; i++) {
        await writeAuditRow(handle.db, CLI_ACTOR, { sellerId, action: 'webhook_endpoint.test_sent', targetId: `older-${i}` }, new Date(Date.UTC(2026, 10, 2) + i));
      }
    } finally {
      await handle.close();
    }
    // 5 from the first test, 2 from the one before.
    const total = 150 + 7;
    await page.reload();
    await row('Test event sent').waitFor();
    const more = page.getByRole('button', { name: 'Show older activity' });
    expect(await page.locator('#activity-body tr').count()).toBe(100);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `activity with older rows at ${viewport.width} px`);
      await expectFits(page, `activity with older rows at ${viewport.width} px`);
    }
    await page.setViewportSize(DESKTOP);
    await more.click();
    await page.waitForFunction((count) => document.querySelectorAll('#activity-body tr').length === count, total);
    expect(await more.isHidden()).toBe(true);
    // The oldest row last, and focus on the first row the button brought.
    expect(await page.locator('#activity-body tr').last().locator('th').textContent()).toBe('Account created');
    expect(await page.evaluate(() => document.activeElement === document.querySelectorAll('#activity-body tr')[100])).toBe(true);
    expect(problems).toEqual([]);
  });
});
