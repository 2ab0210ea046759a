// An endpoint's own page in a real browser (Debian's Chromium, driven by playwright-core), against a real server
// started like `cli serve --allow-private-webhooks`, delivering to a real receiver on 127.0.0.1 that answers 500:
// a failing delivery opens to its attempts with the receiver's status and body; the revealed secret verifies
// a delivery; disable, enable and "resend all failed" re-deliver each failed event once. At 1280×800 and
// 390×844, no table card is wider than its card, and axe-core finds nothing on any state of the page.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CustomersClient, verifyWebhook } from '@customers-api/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser-checks.js';
import { createApiKey } from '../db/api-keys.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../test-results');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** axe-core's violations on the page as it is now (its experimental name-mismatch rule included), as short lines. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, so the page's Content-Security-Policy does not stop it.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Every card and table card whose content is wider than itself, with the first element sticking out. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.card:not([hidden]), .table-card, main')]
      .filter((node) => node.offsetParent !== null && node.scrollWidth > node.clientWidth)
      .map((node) => {
        const right = node.getBoundingClientRect().right;
        const out = [...node.querySelectorAll<HTMLElement>('*')].find((child) => child.getBoundingClientRect().right > right + 1);
        return `${node.id || node.className}: ${node.scrollWidth} > ${node.clientWidth} (${out?.tagName} ${out?.id || out?.className})`;
      }),
  );
}

describe.each(['sqlite', 'postgres'] as const)("an endpoint's page in Chromium, server on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let receiver: WebhookReceiver;
  let keyDir: string;
  let banner = '';
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    keyDir = mkdtempSync(join(tmpdir(), 'webhook-key-'));
    server = await startServer(
      {
        port: 0,
        host: '127.0.0.1',
        databaseUrl: database.url,
        logLevel: 'silent',
        allowPrivateWebhooks: true,
        webhookSecretKey: { file: join(keyDir, 'webhook-secret.key') },
      },
      { print: (text) => (banner += text) },
    );
    receiver = await startWebhookReceiver();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: VIEWPORTS[0][1] });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
    await database?.dispose();
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  });

  /** At both sizes: nothing wider than its card, axe finds nothing, and a screenshot of the state. */
  async function checkLayout(state: string) {
    for (const [name, viewport] of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await overflowing(page), `${state} at ${name}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${state} at ${name}`).toBeLessThanOrEqual(viewport.width);
      expect(await axeViolations(page), `${state} at ${name}`).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `endpoint-${state}-${dialect}-${name}.png`), fullPage: true });
    }
    await page.setViewportSize(VIEWPORTS[0][1]);
  }

  const row = (eventId: string) => page.locator('#deliveries-body tr', { has: page.getByRole('link', { name: new RegExp(eventId) }) });

  it('opens a failing delivery to its attempts, reveals the verifying secret, and resends every failed event once', async () => {
    const link = /(http:\/\/\S+\/dashboard\/login\?token=\S+)/.exec(banner)?.[1];
    const sellerId = /seller id:\s+(\S+)/.exec(banner)?.[1];
    expect(link && sellerId, banner).toBeTruthy();
    await page.goto(link!);
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/api-keys`);
    await page.goto(`${server.url}/dashboard/settings/webhooks`);
    const url = `${receiver.url}/a-rather-long-path/that-goes-on/and-on/for-the-layout-check?tenant=shop-with-a-long-name`;
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });
    const shownOnce = await page.getByLabel("The endpoint's signing secret").inputValue();
    await page.getByRole('link', { name: url }).click();
    await page.waitForURL(/\/dashboard\/settings\/webhooks\/[0-9a-f-]{36}$/);
    await page.locator('#state-badge', { hasText: /^Active$/ }).waitFor();
    expect(await page.locator('#endpoint-url').textContent()).toBe(url);

    // The receiver fails: two customers, two deliveries retrying with its status and body.
    receiver.answerWith(() => ({ status: 500, body: '{"error":"database is down"}' }));
    const { key } = await createApiKey(server.database, { sellerId: sellerId!, name: 'browser test' });
    const client = new CustomersClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    for (const name of ['Ada', 'Bea']) await client.customers.create({ first_name: name, last_name: 'L', email: `${name}@example.com` });
    const firsts = await receiver.waitUntil((all) => all.length >= 2);
    const eventIds = firsts.map((r) => String(r.headers['webhook-id']));
    await page.reload();
    for (const eventId of eventIds) await row(eventId).locator('[data-label="State"]', { hasText: /^Retrying$/ }).waitFor();
    expect(await row(eventIds[0]!).locator('[data-label="Response"]').textContent()).toBe('HTTP 500');

    await row(eventIds[0]!).getByRole('link').click();
    const detail = page.locator('#detail');
    await detail.waitFor({ state: 'visible' });
    expect(await page.locator('#detail-event').textContent()).toBe(eventIds[0]);
    const attempt = page.locator('#detail-attempts li').first();
    expect(await attempt.locator('.attempt-line').textContent()).toContain('HTTP 500');
    expect(await attempt.locator('pre').textContent()).toBe('{"error":"database is down"}');
    expect(await page.locator('#detail-headers').textContent()).toContain('webhook-signature');
    expect(await page.content()).not.toContain(shownOnce);
    expect(page.url()).toContain(`delivery=${eventIds[0]}`);
    await checkLayout('failing-delivery');
    // The open delivery's row is marked; Escape closes the detail and Close too, each returning focus to the row's link.
    expect(await row(eventIds[0]!).getAttribute('aria-current')).toBe('true');
    expect(await row(eventIds[1]!).getAttribute('aria-current')).toBeNull();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-event-id'))).toBe(eventIds[0]);
    expect(await row(eventIds[0]!).getAttribute('aria-current')).toBeNull();
    expect(page.url()).not.toContain('delivery=');
    await row(eventIds[1]!).getByRole('link').click();
    await page.locator('#detail-event', { hasText: eventIds[1]! }).waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await detail.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-event-id'))).toBe(eventIds[1]);

    // Reveal: the same secret as shown at creation, and it verifies what the receiver got.
    await page.getByRole('button', { name: 'Reveal signing secret' }).click();
    await page.locator('#secret').waitFor({ state: 'visible' });
    const revealed = await page.getByLabel("The endpoint's signing secret").inputValue();
    expect(revealed).toBe(shownOnce);
    expect((await verifyWebhook(firsts[0]!.body, firsts[0]!.headers, revealed)).id).toBe(eventIds[0]);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(revealed);
    await checkLayout('secret-revealed');
    await page.getByRole('button', { name: 'Hide the secret' }).click();

    // Disable: the waiting deliveries are given up; the state says since when, on the page.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable endpoint' }).click();
    await page.locator('#state-badge', { hasText: /^Disabled$/ }).waitFor();
    expect(await page.locator('#state-text').textContent()).toMatch(/^since /);
    await page.getByLabel('State').selectOption('failed');
    for (const eventId of eventIds) await row(eventId).locator('[data-label="State"]', { hasText: /^Failed$/ }).waitFor();
    expect(await page.locator('#deliveries-body tr').count()).toBe(2);

    // Fixed receiver, enabled again, resend all failed of the last 24 hours: each failed event arrives once more.
    receiver.answerWith(() => ({ status: 204 }));
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('#state-badge', { hasText: /^(Active|Failing)$/ }).waitFor();
    // (Each may have had a retry before it was disabled: counted from here.)
    const sent = (id: string) => receiver.received.filter((r) => r.headers['webhook-id'] === id).length;
    const before = eventIds.map(sent);
    await page.getByRole('button', { name: 'Resend all failed' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resend 2 failed deliveries' }).click();
    await page.getByRole('status').filter({ hasText: '2 failed deliveries queued again.' }).waitFor();
    await receiver.waitUntil(() => eventIds.every((id, i) => sent(id) > before[i]!));
    // The receiver has its request before the worker records the answer: the unfiltered page keeps itself current
    // while a row is on its way, so the rows turn Delivered there first; only then is the filter asked.
    await page.getByLabel('State').selectOption('all');
    for (const eventId of eventIds) await row(eventId).locator('[data-label="State"]', { hasText: /^Delivered$/ }).waitFor();
    await page.getByLabel('State').selectOption('succeeded');
    for (const eventId of eventIds) await row(eventId).locator('[data-label="State"]', { hasText: /^Delivered$/ }).waitFor();
    expect(eventIds.map(sent)).toEqual(before.map((n) => n + 1));
    await checkLayout('resent');

    // Search by event id, edit the description, preview and send a test event of a chosen type.
    await page.getByLabel('State').selectOption('all');
    await page.getByLabel('Event id').fill(eventIds[1]!);
    await page.getByRole('button', { name: 'Search' }).click();
    await row(eventIds[0]!).waitFor({ state: 'detached' });
    expect(await page.locator('#deliveries-body tr').count()).toBe(1);
    await row(eventIds[1]!).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Endpoint URL').fill('ftp://nope.example');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#edit-url[aria-invalid="true"]').waitFor();
    expect(await page.locator('#edit-url-error').textContent()).toBe('url must be an http or https URL');
    await checkLayout('edit-error');
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#endpoint-description', { hasText: 'CRM sync' }).waitFor();
    await page.getByLabel('Test event type').selectOption('customer.deleted');
    await page.locator('#test-payload', { hasText: '"type": "customer.deleted"' }).waitFor();
    const received = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [test] = (await receiver.waitUntil((all) => all.length > received)).slice(received);
    expect((await verifyWebhook(test!.body, test!.headers, revealed)).type).toBe('customer.deleted');
    // The one refused request is the edit to an ftp URL; nothing else failed, no script error, no CSP violation.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  }, 240_000);
});
