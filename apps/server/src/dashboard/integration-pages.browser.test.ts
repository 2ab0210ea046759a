// The Request logs, Events and Customers pages and an endpoint's health, in Chromium (playwright-core) against a
// real server on SQLite and PostgreSQL, with the real SDK making the seller's calls and a real HTTP receiver:
// every new page state passes axe-core and fits at 1280 and 390 px.
import { randomBytes } from 'node:crypto';
import { ConflictError, CustomersClient } from '@customers-api/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { createSecretBox } from '../webhooks/secret-box.js';
import { expectFits, expectNoAxeViolations, launchChromium } from './browser-checks.js';
import { createLoginLink, loginLinkUrl } from './login-links.js';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Retries `check` (a reload and a look) until it holds: for what the server does in the background. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(['sqlite', 'postgres'] as const)('Request logs, Events, Customers and endpoint health in Chromium, server on %s', (dialect) => {
  // The delivery worker's clock stands still, 10 minutes ahead: first attempts (due now) go out at once, and no
  // retry (due 5 s or more after an attempt on this clock) comes due during the test, so attempts are counted
  // exactly, whatever the machine's speed.
  const workerNow = Date.now() + 600_000;
  let server: TestServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let sdk: CustomersClient;
  const problems: string[] = [];
  let sellerId: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, clock: { now: () => workerNow } },
    });
    receiver = await startWebhookReceiver();
    receiver.answerWith(() => ({ status: 500, body: '{"error":"database is down"}' }));
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: VIEWPORTS[0] })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      // The searches and edits the test makes fail on purpose answer 4xx; anything else is a problem.
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const seller = await createSeller(server.handle, { name: 'Acme Growth GmbH', plan: 'growth' });
    sellerId = seller.id;
    const { key } = await createApiKey(server.handle, { sellerId: seller.id, name: 'Checkout server' });
    sdk = new CustomersClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    await page.goto(loginLinkUrl(server.url, (await createLoginLink(server.handle, seller.id)).token));
    await page.getByRole('button', { name: /^Sign in as / }).click();
    await page.waitForURL(/\/dashboard\/settings\//);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  /** At both widths: axe-core finds nothing, nothing is wider than its box; back to desktop after. */
  async function check(state: string): Promise<void> {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `${state} at ${viewport.width} px`);
      await expectFits(page, `${state} at ${viewport.width} px`);
    }
    await page.setViewportSize(VIEWPORTS[0]);
  }

  const create = (name: string) => sdk.customers.create({ first_name: name, last_name: 'Lovelace', email: `${name.toLowerCase()}@example.com` });

  it('finds the request id of a 409 the SDK got, and opens it to its error body', async () => {
    // Two more keys: another live one (the Key filter lists it; none of its requests) and a test one (not listed).
    await createApiKey(server.handle, { sellerId, name: 'Back office' });
    await createApiKey(server.handle, { sellerId, name: 'Staging', mode: 'test' });
    await page.goto(`${server.url}/dashboard/settings/webhooks`);
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });

    await create('Ada');
    const conflict = await create('Ada').then(() => undefined, (error: unknown) => error);
    expect(conflict).toBeInstanceOf(ConflictError);
    const requestId = (conflict as ConflictError).requestId!;
    expect(requestId).toBeTruthy();

    await page.getByRole('link', { name: 'Request logs' }).click();
    await page.waitForURL(`${server.url}/dashboard/settings/request-logs`);
    await page.getByLabel('Request id').fill(requestId);
    // Recorded off the request's path, in batches: searched again until it shows (the API says within 2 s).
    await until('the 409 is listed', async () => {
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForLoadState('networkidle');
      return (await page.locator('#logs-body tr').count()) === 1;
    });
    const row = page.locator('#logs-body tr').first();
    expect(await row.locator('[data-label="Status"]').textContent()).toBe('409');
    expect(await row.locator('[data-label="Request id"]').textContent()).toBe(requestId);
    expect(await row.locator('[data-label="Key"]').textContent()).toMatch(/^Checkout server \(sk_live_/);
    await check('request logs, found by request id');

    await row.getByRole('button', { name: /^POST \/api\/customers, 409/ }).click();
    await page.locator('#detail').waitFor({ state: 'visible' });
    const error = JSON.parse((await page.locator('#detail-error').textContent())!) as { error: string; message: string };
    expect(error.error).toBe('Conflict');
    expect(error.message).toMatch(/already exists/);
    expect(await page.locator('#detail-request-id').textContent()).toBe(requestId);
    expect(JSON.parse((await page.locator('#detail-body').textContent())!)).toMatchObject({ first_name: 'Ada', email: 'ada@example.com' });
    expect(await row.getAttribute('aria-current')).toBe('true');
    await check('request log detail with its error body');
    // Escape closes it, and focus goes back to the row's button.
    await page.keyboard.press('Escape');
    await page.locator('#detail').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.closest('tr') !== null)).toBe(true);

    // The Key filter: the seller's keys of the page's mode by name and prefix, oldest first.
    const keyChoices = await page.locator('#filter-key option').allTextContents();
    expect(keyChoices).toEqual(['Any key', expect.stringMatching(/^Checkout server \(sk_live_\w+…\)$/), expect.stringMatching(/^Back office \(sk_live_\w+…\)$/)]);
    await page.locator('#filter-key').selectOption({ label: keyChoices[2]! });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#logs-empty').waitFor({ state: 'visible' });
    await page.locator('#filter-key').selectOption({ label: keyChoices[1]! });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#logs-body tr').first().waitFor();
    expect(await page.locator('#logs-body [data-label="Request id"]').allTextContents()).toEqual([requestId]);

    // A filter the server refuses is shown beside its field, in the server's words.
    await page.getByLabel('Path').fill('api/customers');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#filter-path[aria-invalid="true"]').waitFor();
    expect(await page.locator('#filter-path-error').textContent()).toMatch(/^path must start with \//);
    expect(problems).toEqual([]);
  }, 240_000);

  it('says Failing on the 5th failed attempt to an endpoint answering 500, with the next retry', async () => {
    // Ada's delivery failed once; three more customers, three more first attempts: 4 failed, not yet failing.
    for (const name of ['Bea', 'Cid', 'Dee']) await create(name);
    await receiver.waitUntil((all) => all.length >= 4);
    const endpoints = (await (await page.request.get(`${server.url}/dashboard/api/webhooks`)).json()) as { endpoints: { id: string }[] };
    await page.goto(`${server.url}/dashboard/settings/webhooks/${endpoints.endpoints[0]!.id}`);
    await until('4 attempts are recorded', async () => {
      await page.reload();
      return /of 4 attempts/.test((await page.locator('#rate-24h').textContent()) ?? '');
    });
    expect(await page.locator('#state-badge').textContent()).toBe('Active');
    expect(receiver.received).toHaveLength(4);

    await create('Eve');
    await receiver.waitUntil((all) => all.length >= 5);
    await until('the 5th attempt is recorded', async () => {
      await page.reload();
      return /of 5 attempts/.test((await page.locator('#rate-24h').textContent()) ?? '');
    });
    expect(await page.locator('#state-badge').textContent()).toBe('Failing');
    expect(receiver.received).toHaveLength(5);
    expect(await page.locator('#state-text').textContent()).toMatch(/no attempt has succeeded yet; next retry \d+ \w+ \d{4}, \d\d:\d\d UTC/);
    expect(await page.locator('#next-retry').textContent()).toMatch(/UTC$/);
    await check('endpoint failing');
    expect(problems).toEqual([]);
  }, 240_000);

  it('finds an event by an 8-character prefix and by customer, with its state per endpoint, and resends it', async () => {
    const eventId = String(receiver.received.at(-1)!.headers['webhook-id']);
    await page.goto(`${server.url}/dashboard/settings/events`);
    await page.locator('#events-list > li').first().waitFor();
    expect(await page.locator('#events-list > li').count()).toBe(5);
    await check('events');

    await page.getByLabel('Event id or its start').fill(eventId.slice(4, 12));
    await page.getByRole('button', { name: 'Search' }).click();
    await until('one event is listed', async () => (await page.locator('#events-list > li').count()) === 1);
    const card = page.locator('#events-list > li').first();
    expect(await card.locator('h3').textContent()).toBe(eventId);
    const delivery = card.locator('.event-deliveries li').first();
    expect(await delivery.locator('.badge').textContent()).toBe('Retrying');
    expect(await delivery.textContent()).toMatch(/1 attempt, last HTTP 500/);
    await check('events, found by prefix');

    const eve = (await sdk.customers.list({ email: 'eve@example.com' })).data[0]!;
    await page.getByLabel('Event id or its start').fill('');
    await page.getByLabel('Customer id').fill(eve.id);
    await page.getByRole('button', { name: 'Search' }).click();
    await until('Eve\'s event alone is listed', async () =>
      (await page.locator('#events-list > li').count()) === 1 && (await card.locator('h3').textContent()) === eventId);
    await check('events, found by customer');

    await delivery.getByRole('button', { name: /^Resend / }).click();
    await page.getByRole('status').filter({ hasText: `Event ${eventId} queued` }).waitFor();
    await receiver.waitUntil((all) => all.filter((r) => r.headers['webhook-id'] === eventId).length === 2);

    // A search the server refuses is shown beside its field.
    await page.getByLabel('Customer id').fill('nope');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#filter-customer[aria-invalid="true"]').waitFor();
    await check('events, refused search');
    expect(problems).toEqual([]);
  }, 240_000);

  it('finds a customer by email, opens it to its events, edits and deletes it; test mode shows none', async () => {
    await page.goto(`${server.url}/dashboard/settings/customers`);
    await page.locator('#customers-body tr').first().waitFor();
    expect(await page.locator('#customers-body th').allTextContents()).toEqual(['Eve Lovelace', 'Dee Lovelace', 'Cid Lovelace', 'Bea Lovelace', 'Ada Lovelace']);
    await check('customers');

    await page.locator('#filter-email').fill('CID@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await until('Cid alone is listed', async () => (await page.locator('#customers-body tr').count()) === 1);
    await page.getByRole('button', { name: 'Cid Lovelace' }).click();
    await page.locator('#detail').waitFor({ state: 'visible' });
    await page.locator('#detail-events li').first().waitFor();
    expect(await page.locator('#detail-events li').first().textContent()).toContain('customer.created');
    expect(await page.locator('#detail-email').textContent()).toBe('cid@example.com');
    await check('customer detail with its events');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('First name').fill('Cidney');
    await page.locator('#edit-email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The public API's rule, beside its field: another customer has that email.
    await page.locator('#edit-email[aria-invalid="true"]').waitFor();
    await check('customer edit refused');
    await page.locator('#edit-email').fill('cid@example.com');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#detail-heading', { hasText: 'Cidney Lovelace' }).waitFor();

    await page.getByRole('button', { name: 'Delete customer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete customer' }).click();
    await page.locator('#customers-empty').waitFor({ state: 'visible' });
    expect(await sdk.customers.list({ email: 'cid@example.com' })).toMatchObject({ data: [] });

    await page.goto(`${server.url}/dashboard/settings/customers?mode=test`);
    await page.locator('#customers-empty').waitFor({ state: 'visible' });
    await check('customers in test mode, none');
    expect(problems).toEqual([]);
  }, 240_000);
});
