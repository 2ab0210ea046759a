// The Webhooks page in a real browser (Debian's Chromium, driven by playwright-core), against a real server
// started like `cli serve --allow-private-webhooks` on a fresh database, delivering to a real receiver on
// 127.0.0.1: add an endpoint, copy its secret, watch deliveries, send a test event, resend, enable, rotate, delete.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LATEST_API_VERSION } from '@customers-api/core';
import { CustomersClient, verifyWebhook } from '@customers-api/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { expectNoAxeViolations, launchChromium } from './browser-checks.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../test-results');
const DESKTOP = { width: 1280, height: 900 };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is now (its experimental name-mismatch rule included). */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, so the page's Content-Security-Policy does not stop it.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe.each(['sqlite', 'postgres'] as const)('the Webhooks page in Chromium, server on %s', (dialect) => {
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
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
    await database?.dispose();
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  });

  const endpointRow = (url: string) => page.locator('#endpoints-body tr', { has: page.getByRole('rowheader', { name: url, exact: true }) });
  const deliveryRow = (eventId: string) => page.locator(`#deliveries-body tr`, { has: page.getByText(eventId, { exact: true }) });

  it('adds an endpoint, shows its secret once, lists deliveries with status and code, tests, resends, rotates and deletes', async () => {
    const link = /(http:\/\/\S+\/dashboard\/login\?token=\S+)/.exec(banner)?.[1];
    const sellerId = /seller id:\s+(\S+)/.exec(banner)?.[1];
    expect(link && sellerId, banner).toBeTruthy();
    await page.goto(link!);
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/api-keys`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/webhooks`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks');
    await page.getByText('No endpoints yet. Add one above.').waitFor();

    // Add the receiver for created and updated events only (keyboard: Enter submits).
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('customer.deleted').uncheck();
    // Its events' version: the account's (a new seller's is the latest), with nothing newer to choose.
    const version = page.getByLabel('API version of its events');
    await version.locator('option').first().waitFor({ state: 'attached' });
    expect(await version.inputValue()).toBe(LATEST_API_VERSION);
    expect(await version.locator('option').allTextContents()).toEqual([`${LATEST_API_VERSION} (your account's)`]);
    await page.getByLabel('Endpoint URL').press('Enter');
    const shown = page.locator('#new-secret');
    await shown.waitFor({ state: 'visible' });
    expect(await shown.textContent()).toContain("You won't see it again.");
    const secret = await page.getByLabel("The endpoint's signing secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await page.locator('#copy-secret').click();
    await page.locator('#copy-secret', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await endpointRow(receiver.url).waitFor();
    expect(await endpointRow(receiver.url).locator('[data-label="Events"]').innerText()).toBe('customer.created\ncustomer.updated');
    expect(await endpointRow(receiver.url).locator('[data-label="Status"]').textContent()).toBe('Active');
    await page.getByRole('button', { name: 'I have stored it, hide the secret' }).click();
    await shown.waitFor({ state: 'hidden' });
    await page.reload();
    await endpointRow(receiver.url).waitFor();
    expect(await page.content()).not.toContain(secret);

    // A change through the SDK reaches the receiver, signed with the copied secret; the page shows the delivery.
    const { key } = await createApiKey(server.database, { sellerId: sellerId!, name: 'browser test' });
    const client = new CustomersClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const [created] = await receiver.waitUntil((all) => all.length >= 1);
    const event = await verifyWebhook(created!.body, created!.headers, secret);
    expect(event.type).toBe('customer.created');
    await endpointRow(receiver.url).getByRole('button', { name: `Show deliveries to ${receiver.url}` }).click();
    await deliveryRow(event.id).locator('[data-label="State"]', { hasText: /^Delivered$/ }).waitFor();
    expect(await deliveryRow(event.id).locator('[data-label="Response"]').textContent()).toBe('204');
    expect(await deliveryRow(event.id).locator('[data-label="Attempts"]').textContent()).toBe('1');

    // A test event while the receiver answers 500: the page follows it to "Retrying" with the code.
    receiver.answerWith(() => ({ status: 500 }));
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [, testRequest] = await receiver.waitUntil((all) => all.length >= 2);
    const testEvent = await verifyWebhook(testRequest!.body, testRequest!.headers, secret);
    expect(testEvent.type === 'customer.updated' && testEvent.data.customer.id).toMatch(/^00000000-0000-4000-8000-/);
    await deliveryRow(testEvent.id).locator('[data-label="State"]', { hasText: /^Retrying$/ }).waitFor();
    expect(await deliveryRow(testEvent.id).locator('[data-label="Response"]').textContent()).toBe('500');
    expect(await deliveryRow(testEvent.id).locator('[data-label="Next attempt"] time').count()).toBe(1);

    // Resend the first event: the same webhook-id arrives again. (The receiver keeps answering 500 from here on,
    // so no later success clears the failing state set below.)
    await deliveryRow(event.id).getByRole('button', { name: `Resend customer.created ${event.id}` }).click();
    const again = (await receiver.waitUntil((all) => all.filter((r) => r.headers['webhook-id'] === event.id).length >= 2)).filter(
      (r) => r.headers['webhook-id'] === event.id,
    );
    expect(again[1]!.body).toBe(created!.body);

    // An endpoint whose deliveries were given up shows as failing (set by hand: giving up takes three days).
    await server.app.webhookWorker!.drain();
    await server.database.db.updateTable('webhook_endpoints').set({ failing_since: new Date().toISOString() }).execute();
    await page.reload();
    await endpointRow(receiver.url).locator('[data-label="Status"]', { hasText: /^Failing$/ }).waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await endpointRow(receiver.url).getByRole('button', { name: `Show deliveries to ${receiver.url}` }).click();
    await deliveryRow(event.id).waitFor();
    // Every column fits its card (issue 29: the Resend column was cut at 1280 px), before and after a resend.
    const tooWide = () => page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.table-wrap')]
      .filter((node) => node.offsetParent !== null && node.scrollWidth > node.clientWidth).map((node) => {
        const right = node.getBoundingClientRect().right;
        const out = [...node.querySelectorAll<HTMLElement>('*')].find((child) => child.getBoundingClientRect().right > right + 1);
        return `${node.parentElement?.id}: ${node.scrollWidth} > ${node.clientWidth} (${out?.tagName}.${out?.className} ${out?.textContent?.slice(0, 40)})`;
      }));
    expect(await tooWide()).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `webhooks-${dialect}-desktop.png`), fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await tooWide()).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `webhooks-${dialect}-360px.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);

    // Disabled after 5 days of failures (set by hand): the badge says so, and Enable brings it back (still failing).
    await server.database.db.updateTable('webhook_endpoints').set({ disabled_at: new Date().toISOString() }).execute();
    await page.reload();
    await endpointRow(receiver.url).locator('[data-label="Status"]', { hasText: /^Disabled$/ }).waitFor();
    await endpointRow(receiver.url).getByRole('button', { name: `Enable endpoint ${receiver.url}` }).click();
    await endpointRow(receiver.url).locator('[data-label="Status"]', { hasText: /^Failing$/ }).waitFor();
    expect(await endpointRow(receiver.url).getByRole('button', { name: `Enable endpoint ${receiver.url}` }).count()).toBe(0);
    const enabled = await server.database.db.selectFrom('webhook_endpoints').select('disabled_at').execute();
    expect(enabled).toEqual([{ disabled_at: null }]);

    // Rotate: confirmed in the dialog; the new secret is shown once and verifies the next event (so does the old).
    await endpointRow(receiver.url).getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await shown.waitFor({ state: 'visible' });
    const rotated = await page.getByLabel("The endpoint's signing secret").inputValue();
    expect(rotated).not.toBe(secret);
    expect(await page.locator('#new-secret-rotated').isVisible()).toBe(true);
    const count = receiver.received.length;
    await client.customers.update(event.type === 'customer.created' ? event.data.customer.id : '', { status: 'suspended' });
    // The update's event, whenever it comes: a retry of the resent customer.created (the receiver still answers 500)
    // may arrive first, since a customer's events go out in order.
    const isUpdate = (request: { body: string }) => (JSON.parse(request.body) as { type: string }).type === 'customer.updated';
    const latest = (await receiver.waitUntil((all) => all.slice(count).some(isUpdate))).slice(count).find(isUpdate);
    for (const key of [secret, rotated]) expect((await verifyWebhook(latest!.body, latest!.headers, key)).type).toBe('customer.updated');

    // Delete: Escape cancels, confirming removes it for good.
    await endpointRow(receiver.url).getByRole('button', { name: `Delete endpoint ${receiver.url}` }).click();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await endpointRow(receiver.url).count()).toBe(1);
    await endpointRow(receiver.url).getByRole('button', { name: `Delete endpoint ${receiver.url}` }).click();
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await endpointRow(receiver.url).waitFor({ state: 'detached' });
    expect(await page.locator('#deliveries').isHidden()).toBe(true);
    await page.reload();
    await page.getByText('No endpoints yet. Add one above.').waitFor();
    expect(problems).toEqual([]);
  }, 180_000);

  it('shows the server\'s refusal of a URL beside the field, worded as Edit words it', async () => {
    const before = await page.locator('#endpoints-body tr').count();
    const url = page.getByLabel('Endpoint URL');
    await url.fill('http://user:pw@127.0.0.1/hook');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#endpoint-url[aria-invalid="true"]').waitFor();
    expect(await page.locator('#endpoint-url-error').textContent()).toBe('url must not contain a user name or password');
    // Not the browser's own bubble and not the page's top alert: the same words as the endpoint page's Edit.
    await url.fill('ftp://nope.example');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#endpoint-url-error', { hasText: 'url must be an http or https URL' }).waitFor();
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('endpoint-url');
    // No event type chosen: said beside the choices.
    await url.fill('https://shop.example.com/hooks');
    for (const box of await page.locator('#endpoint-events input').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#endpoint-events-error').filter({ hasText: /^events / }).waitFor();
    expect(await page.locator('#endpoint-url').getAttribute('aria-invalid')).toBeNull();
    await expectNoAxeViolations(page, 'add endpoint field errors');
    expect(await page.locator('#endpoints-body tr').count()).toBe(before);
    expect(await page.locator('#new-secret').isHidden()).toBe(true);
  }, 120_000);
});
