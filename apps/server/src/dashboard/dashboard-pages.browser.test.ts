// Every page state of the dashboard's keys, activity, sign-in and error pages in Chromium at 1280×800 and 390×844:
// axe-core finds nothing and nothing is wider than its box. Also the flows behind them: the page asked for while
// signed out comes back after sign-in, a used link offers the way back, the reveal card goes with its key.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { expectFits, expectNoAxeViolations, launchChromium } from './browser-checks.js';
import { createLoginLink, loginLinkUrl } from './login-links.js';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

describe.each(['sqlite', 'postgres'] as const)('dashboard pages in Chromium, server on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let browser: Browser;
  let sellerId: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent' }, { print: () => {} });
    browser = await launchChromium();
  }, 120_000);

  /** A growth-plan seller of its own for each test, with active (one with the longest unbroken name), expiring and expired keys. */
  async function seedSeller(): Promise<void> {
    const seller = await createSeller(server.database, { name: 'Acme Growth GmbH', plan: 'growth' });
    sellerId = seller.id;
    await createApiKey(server.database, { sellerId, name: 'Production server' });
    await createApiKey(server.database, { sellerId, name: 'Staging', expiresAt: '2099-01-31T00:00:00.000Z' });
    // The longest name there can be, without a space to break at.
    await createApiKey(server.database, { sellerId, name: 'x'.repeat(100) });
    const expired = new Date(Date.now() - 86_400_000);
    await createApiKey(server.database, { sellerId, name: 'Old laptop', expiresAt: expired.toISOString() }, new Date(expired.getTime() - 86_400_000));
  }

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.dispose();
  });

  const link = async () => loginLinkUrl(server.url, (await createLoginLink(server.database, sellerId)).token);

  /** A fresh browser context with its own page; script errors and CSP violations are collected. */
  async function open(viewport: { width: number; height: number }) {
    await seedSeller();
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 40[14]/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { context, page, problems };
  }

  async function signIn(page: Page) {
    await page.goto(await link());
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL(/\/dashboard\/settings\//);
  }

  async function check(page: Page, state: string) {
    await expectNoAxeViolations(page, state);
    await expectFits(page, state);
  }

  const row = (page: Page, name: string) => page.locator('#keys-body tr').filter({ has: page.locator('th').getByText(name, { exact: true }) });

  for (const viewport of VIEWPORTS) {
    const at = `${viewport.width}×${viewport.height}`;

    // Many axe runs and page loads each: minutes on a loaded 2-core machine, so the verdict never rests on its speed.
    it(`keys page states pass axe and fit at ${at}`, { timeout: 180_000 }, async () => {
      const { context, page, problems } = await open(viewport);
      try {
        await signIn(page);
        await row(page, 'Production server').waitFor();
        await check(page, `keys list ${at}`);
        // No Revoke (and no Roll) on an expired key; Delete only.
        const expired = row(page, 'Old laptop');
        expect(await expired.locator('.badge').textContent()).toBe('Expired');
        expect(await expired.getByRole('button').allTextContents()).toEqual(['Delete']);
        // Dates say UTC, like the 00:00 UTC hint.
        expect(await row(page, 'Staging').locator('[data-label="Expires"]').textContent()).toBe('31 Jan 2099 00:00 UTC');

        // The create dialog: focus on the name; an empty name is refused beside the field.
        await page.getByRole('button', { name: 'Create key' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create a key' });
        await dialog.waitFor();
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('key-name');
        await check(page, `create dialog ${at}`);
        await dialog.getByRole('button', { name: 'Create key' }).click();
        await page.locator('#key-name-error').waitFor();
        expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        expect(await page.locator('#key-name-error').textContent()).toBe('Enter a name for the key.');
        await check(page, `create dialog with a field error ${at}`);
        await page.getByLabel('Name', { exact: true }).fill('Nightly export');
        await dialog.getByRole('button', { name: 'Create key' }).click();
        await page.locator('#new-key').waitFor();
        await page.locator('.toast', { hasText: 'Key “Nightly export” created.' }).waitFor();
        await check(page, `reveal card and toast ${at}`);

        // Revoking the key the card shows closes the card.
        await row(page, 'Nightly export').getByRole('button', { name: 'Revoke key Nightly export' }).click();
        await check(page, `confirm dialog ${at}`);
        await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
        await page.locator('.toast', { hasText: 'Key “Nightly export” revoked.' }).waitFor();
        expect(await page.locator('#new-key').isHidden()).toBe(true);
        expect(await page.getByLabel('Your new API key').inputValue()).toBe('');

        // Roll: the dialog offers the three overlaps; the new key is shown once, the old one gets its expiry.
        await row(page, 'Production server').getByRole('button', { name: 'Roll key Production server' }).click();
        const roll = page.getByRole('dialog', { name: 'Roll “Production server”?' });
        await roll.waitFor();
        expect(await roll.getByRole('radio').count()).toBe(3);
        expect(await roll.getByRole('radio', { name: '24 hours' }).isChecked()).toBe(true);
        await check(page, `roll dialog ${at}`);
        await roll.getByRole('radio', { name: '1 hour' }).check();
        await roll.getByRole('button', { name: 'Roll key' }).click();
        await page.locator('#new-key-title', { hasText: 'Key “Production server” rolled' }).waitFor();
        expect(await page.getByLabel('Your new API key').inputValue()).toMatch(/^sk_live_/);
        expect(await page.locator('#new-key-overlap').textContent()).toMatch(/keeps working until \d+ \w+ \d{4}, \d\d:\d\d UTC\.$/);
        expect(await row(page, 'Production server').count()).toBe(2);
        await check(page, `rolled ${at}`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it(`activity, sign-in, signed-out and 404 pages pass axe and fit at ${at}`, { timeout: 180_000 }, async () => {
      const { context, page, problems } = await open(viewport);
      try {
        // Signed out, asking for a page: why, how to get back, and that page after the next sign-in.
        expect((await page.goto(`${server.url}/dashboard/settings/activity`))?.status()).toBe(401);
        await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
        expect(await page.locator('#reason').textContent()).toBe('The dashboard opens with a one-time sign-in link.');
        expect(await page.locator('#return-note').textContent()).toContain('/dashboard/settings/activity');
        expect(await page.content()).not.toContain('pnpm cli');
        await check(page, `signed out ${at}`);
        await page.goto(await link());
        await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
        // The same top bar as every other dashboard page.
        expect(await page.getByRole('banner').getByText('Customers API').count()).toBe(1);
        await check(page, `sign-in page ${at}`);
        const used = page.url();
        await page.getByRole('button', { name: /^Sign in as / }).click();
        await page.waitForURL(`${server.url}/dashboard/settings/activity`);
        await page.locator('#activity-body tr').first().waitFor();
        await check(page, `activity ${at}`);

        // A used link opened while signed in: why it fails, and the way back.
        expect((await page.goto(used))?.status()).toBe(401);
        await page.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
        await check(page, `used link while signed in ${at}`);
        await page.getByRole('link', { name: 'Back to the dashboard' }).click();
        await page.waitForURL(`${server.url}/dashboard/settings/api-keys`);

        // Another seller's link while signed in.
        const other = await createSeller(server.database, { name: 'Other Ltd', plan: 'starter' });
        await page.goto(loginLinkUrl(server.url, (await createLoginLink(server.database, other.id)).token));
        await page.getByRole('heading', { name: 'Switch to another account?' }).waitFor();
        expect(await page.getByRole('banner').getByRole('link', { name: 'Customers API' }).getAttribute('href')).toBe('/dashboard');
        await check(page, `switch account ${at}`);

        // An unknown page: a page with a way back, not JSON.
        expect((await page.goto(`${server.url}/dashboard/settings/nope`))?.status()).toBe(404);
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        await check(page, `404 ${at}`);

        // Signing out says so; a used link without a session says where to get a new one.
        await page.goto(`${server.url}/dashboard/settings/api-keys`);
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.locator('#reason', { hasText: 'You signed out.' }).waitFor();
        expect(await page.locator('#return-note').isHidden()).toBe(true);
        await check(page, `signed out by hand ${at}`);
        await page.goto(used);
        await page.locator('#new-link-note', { hasText: 'ask the person who runs this service for a new sign-in link' }).waitFor();
        expect(await page.locator('#signed-in-note').isHidden()).toBe(true);
        await check(page, `used link signed out ${at}`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
