// The API Keys page in a real browser (Debian's Chromium, driven by playwright-core), against a real server
// started like `cli serve` on a fresh database: sign in with the printed link, manage a key, use it via the SDK.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthenticationError, CustomersClient } from '@customers-api/sdk';
import { LATEST_API_VERSION } from '@customers-api/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser-checks.js';
import { createSeller } from '../db/sellers.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { createLoginLink, loginLinkUrl } from './login-links.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../test-results');
const DESKTOP = { width: 1280, height: 900 };

describe.each(['sqlite', 'postgres'] as const)('the API Keys page in Chromium, server on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let banner = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent' },
      { print: (text) => (banner += text) },
    );
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    // Any CSP violation, script error or failed asset shows up here.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.dispose();
  });

  const row = (name: string) => page.locator('#keys-body tr', { has: page.getByRole('rowheader', { name, exact: true }) });
  const cell = (name: string, label: string) => row(name).locator(`[data-label="${label}"]`);

  it('signs in with the first-start link, creates, uses, revokes and deletes a key', async () => {
    const link = /(http:\/\/\S+\/dashboard\/login\?token=\S+)/.exec(banner)?.[1];
    expect(link, banner).toBeDefined();

    // Opening the link only asks, naming the account; the click signs in.
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    expect(await page.locator('#target-account').textContent()).toBe('Demo seller');
    expect(await page.locator('script').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign in as Demo seller' }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/api-keys`);
    await page.locator('#customers-used', { hasText: /^0 of 100 customers used$/ }).waitFor();
    expect(await page.locator('#plan-name').textContent()).toBe('Starter');
    expect(await page.locator('#seller-name').textContent()).toBe('Demo seller');
    // Pinned to the latest version at creation: shown, with nothing newer to move to.
    expect(await page.locator('#api-version').textContent()).toBe(LATEST_API_VERSION);
    expect(await page.locator('#api-version-form').isHidden()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API Keys');
    expect(await cell('Demo key', 'Status').textContent()).toBe('Active');

    // Keyboard users get a skip link first, with a visible focus ring.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement;
        return [focused.textContent, getComputedStyle(focused).outlineStyle];
      }),
    ).toEqual(['Skip to content', 'solid']);

    // Create a key with the keyboard only: the list's "Create key" opens the dialog on the name, Enter submits.
    await page.getByRole('button', { name: 'Create key' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create a key' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key-name');
    await page.getByLabel('Name', { exact: true }).fill('CI server');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    const shown = page.locator('#new-key');
    await shown.waitFor({ state: 'visible' });
    expect(await shown.textContent()).toContain("You won't see it again.");
    const key = await page.getByLabel('Your new API key').inputValue();
    expect(key).toMatch(/^sk_live_[A-Za-z0-9]{48}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    // The list shows the prefix only, and "never" for an unused key.
    await row('CI server').waitFor();
    expect(await cell('CI server', 'Key').locator('code').textContent()).toBe(`${key.slice(0, 12)}…`);
    expect(await cell('CI server', 'Key').locator('.key-access').textContent()).toBe('Live Secret: full access');
    expect(await cell('CI server', 'Last used').textContent()).toBe('never');
    expect(await cell('CI server', 'Expires').textContent()).toBe('never');
    expect(await cell('CI server', 'Status').textContent()).toBe('Active');

    // A second key with an expiry date; then screenshots at desktop width and at 360 px.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Nightly export');
    await page.getByLabel(/Expiration date/).fill('2099-12-31');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    await row('Nightly export').waitFor();
    expect(await cell('Nightly export', 'Expires').locator('time').getAttribute('datetime')).toBe('2099-12-31T00:00:00.000Z');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `dashboard-${dialect}-desktop.png`), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(ARTIFACTS, `dashboard-${dialect}-360px.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'I have stored it, hide the key' }).click();
    await shown.waitFor({ state: 'hidden' });

    // The key works through the SDK; after a reload "last used" shows a time, and the key is not shown again.
    const client = new CustomersClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(ada.first_name).toBe('Ada');
    await server.app.drainKeyUsage();
    await page.reload();
    await row('CI server').waitFor();
    expect(await cell('CI server', 'Last used').locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await cell('CI server', 'Last used').textContent()).not.toBe('never');
    expect(await page.locator('#customers-used').textContent()).toBe('1 of 100 customers used');
    expect(await page.content()).not.toContain(key);

    // Revoke: Escape cancels the confirmation; confirming revokes at once.
    await row('CI server').getByRole('button', { name: 'Revoke key CI server' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('heading').textContent()).toBe('Revoke “CI server”?');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await cell('CI server', 'Status').textContent()).toBe('Active');
    await row('CI server').getByRole('button', { name: 'Revoke key CI server' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await cell('CI server', 'Status').filter({ hasText: /^Revoked$/ }).waitFor();
    const refused = await client.customers.get(ada.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).status).toBe(401);
    await page.screenshot({ path: join(ARTIFACTS, `dashboard-${dialect}-after-revoke.png`), fullPage: true });

    // Delete permanently: gone from the list, also after a reload.
    await row('CI server').getByRole('button', { name: 'Delete key CI server' }).click();
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await row('CI server').waitFor({ state: 'detached' });
    await page.reload();
    await row('Demo key').waitFor();
    expect(await row('CI server').count()).toBe(0);
    expect(problems).toEqual([]);

    // The link cannot be used twice, not even from a fresh browser.
    const stranger = await browser.newContext({ viewport: DESKTOP });
    try {
      const other = await stranger.newPage();
      // A used link is refused as soon as it is opened.
      expect((await other.goto(link!))?.status()).toBe(401);
      await other.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
      expect(await other.goto(`${server.url}/dashboard/settings/api-keys`).then((r) => r?.status())).toBe(401);
    } finally {
      await stranger.close();
    }

    // Sign-out ends the session: the page now shows the signed-out view.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    expect((await page.goto(`${server.url}/dashboard/settings/api-keys`))?.status()).toBe(401);
  }, 180_000);

  it("asks before a signed-in seller enters another seller's account through a sign-in link", async () => {
    const demoSellerId = /seller id:\s+(\S+)/.exec(banner)![1]!;
    const other = await createSeller(server.database, { name: 'Other Ltd', plan: 'starter' });
    const linkFor = async (sellerId: string) => loginLinkUrl(server.url, (await createLoginLink(server.database, sellerId)).token);
    const victim = await browser.newContext({ viewport: DESKTOP });
    try {
      const tab = await victim.newPage();
      const tabProblems: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'error') tabProblems.push(message.text());
      });
      await tab.goto(await linkFor(demoSellerId));
      await tab.getByRole('button', { name: 'Sign in as Demo seller' }).click();
      await tab.waitForURL(`${server.url}/dashboard/settings/api-keys`);
      await tab.locator('#seller-name', { hasText: 'Demo seller' }).waitFor();

      // Someone else's link opens on a question, not in the other account.
      const foreignLink = await linkFor(other.id);
      await tab.goto(foreignLink);
      await tab.getByRole('heading', { name: 'Switch to another account?' }).waitFor();
      expect(await tab.locator('#current-account').textContent()).toBe('Demo seller');
      expect(await tab.locator('#target-account').textContent()).toBe('Other Ltd');
      await tab.getByRole('link', { name: 'Stay signed in as Demo seller' }).click();
      await tab.locator('#seller-name', { hasText: 'Demo seller' }).waitFor();

      // Only the person's own click switches.
      await tab.goto(foreignLink);
      await tab.getByRole('button', { name: 'Switch to Other Ltd' }).click();
      await tab.waitForURL(`${server.url}/dashboard/settings/api-keys`);
      await tab.locator('#seller-name', { hasText: 'Other Ltd' }).waitFor();
      expect(tabProblems).toEqual([]);
    } finally {
      await victim.close();
    }
  }, 120_000);
});
