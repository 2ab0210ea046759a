// Defects a seller noticed on the API Keys page (issue 39, point 5), each shown in Chromium: a rolled key that kept
// looking like a key to roll again (its replacement at the bottom), toasts stacking over the action column; and a
// guard that names and button labels keep their words whole at 1280 px (not reproduced here before the change).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { expectFits, expectNoAxeViolations, expectWholeWords, launchChromium } from './browser-checks.js';
import { signedInPage } from './dashboard-test-helpers.js';


describe.each(['sqlite', 'postgres'] as const)('API Keys page defects in Chromium, server on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent' }, { print: () => {} });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.dispose();
  });

  async function signedIn(viewport: { width: number; height: number }, names: string[]) {
    const seller = await createSeller(server.database, { name: 'Acme GmbH', plan: 'growth' });
    for (const name of names) await createApiKey(server.database, { sellerId: seller.id, name });
    return signedInPage(browser, server, seller.id, viewport);
  }

  const row = (page: Page, name: string) => page.locator('#keys-body tr').filter({ has: page.locator('th').getByText(name, { exact: true }) });

  it('keeps key names and button labels whole at 1280 px, beside the longest unbroken name', { timeout: 120_000 }, async () => {
    const { context, page } = await signedIn({ width: 1280, height: 800 }, ['Production checkout', 'x'.repeat(100), 'Staging webhooks worker']);
    try {
      await expectWholeWords(page, '#keys-body th', 'key names at 1280');
      await expectWholeWords(page, '.button', 'buttons at 1280');
      await expectFits(page, 'keys at 1280');
      // Rolled: the list's widest state (a second key of the name, every date column filled, the new key's card).
      await row(page, 'Production checkout').getByRole('button', { name: 'Roll key Production checkout' }).click();
      await page.getByRole('dialog', { name: 'Roll “Production checkout”?' }).getByRole('button', { name: 'Roll key' }).click();
      await page.locator('#new-key-title', { hasText: 'rolled' }).waitFor();
      await expectWholeWords(page, '#keys-body th', 'key names after a roll at 1280');
      await expectWholeWords(page, '.button', 'buttons after a roll at 1280');
    } finally {
      await context.close();
    }
  });

  it('shows one toast at a time, clear of the action column', { timeout: 120_000 }, async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Worker ${i + 1}`);
    const { context, page } = await signedIn({ width: 1280, height: 800 }, names);
    try {
      for (const name of ['Worker 12', 'Worker 11', 'Worker 10']) {
        await row(page, name).getByRole('button', { name: `Revoke key ${name}` }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
        await page.locator('.toast', { hasText: `Key “${name}” revoked.` }).waitFor();
      }
      expect(await page.locator('.toast').allTextContents()).toEqual(['Key “Worker 10” revoked.Dismiss']);
      const toast = (await page.locator('.toast').boundingBox())!;
      const overlapping = await page.locator('#keys-body .row-actions').evaluateAll((boxes, t) => boxes
        .map((box) => box.getBoundingClientRect())
        .filter((r) => r.right > t.x && r.left < t.x + t.width && r.bottom > t.y && r.top < t.y + t.height).length, toast);
      expect(overlapping).toBe(0);
    } finally {
      await context.close();
    }
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    it(`after a roll at ${viewport.width} px: the new key comes first, the old one says until when and cannot be rolled again`, { timeout: 120_000 }, async () => {
      const { context, page } = await signedIn(viewport, ['Production checkout', 'Staging']);
      try {
        await row(page, 'Production checkout').getByRole('button', { name: 'Roll key Production checkout' }).click();
        const roll = page.getByRole('dialog', { name: 'Roll “Production checkout”?' });
        await roll.getByRole('button', { name: 'Roll key' }).click();
        await page.locator('#new-key-title', { hasText: 'rolled' }).waitFor();
        const rows = row(page, 'Production checkout');
        expect(await rows.count()).toBe(2);
        // The new key first, right where the old one was (not at the bottom of the list).
        const names = await page.locator('#keys-body th').allTextContents();
        expect(names.slice(0, 2)).toEqual(['Production checkout', 'Production checkout']);
        const [fresh, old] = [rows.nth(0), rows.nth(1)];
        expect(await fresh.locator('.badge').textContent()).toBe('Active');
        expect(await fresh.getByRole('button').allTextContents()).toEqual(['Roll', 'Revoke', 'Delete']);
        // The old key works only until the overlap ends: it says so, and offers no second roll.
        expect(await old.locator('.badge').textContent()).toBe('Replaced');
        expect(await old.locator('.badge').getAttribute('title')).toMatch(/^Rolled: works until \d+ \w+ \d{4}, \d\d:\d\d UTC$/);
        expect(await old.getByRole('button').allTextContents()).toEqual(['Revoke', 'Delete']);
        await expectNoAxeViolations(page, `rolled at ${viewport.width}`);
        await expectFits(page, `rolled at ${viewport.width}`);
        // The same after a reload: read from the keys themselves, not from what this page did.
        await page.reload();
        await page.locator('#keys-body tr').first().waitFor();
        expect(await row(page, 'Production checkout').nth(1).locator('.badge').textContent()).toBe('Replaced');
      } finally {
        await context.close();
      }
    });
  }
});
