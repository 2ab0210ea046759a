#!/usr/bin/env node
// Screenshots of the seller dashboard for docs/dashboard/, run by hand (not in CI) after `pnpm build`:
//
//   node apps/server/scripts/dashboard-screenshots.mjs [--out DIR]
//
// Starts the built server (dist/cli.js serve) on a temporary SQLite database, seeds a growth-plan seller with keys,
// a test key, three webhook endpoints (one healthy, one answering 500, one unreachable), 30 customers and their
// deliveries and one refused create,
// signs in with a one-time link in Chromium and writes each page of PAGES at 1280×800 and 390×844 as
// NAME-1280.png and NAME-390.png. To add a page, add an entry to PAGES.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '../dist/cli.js');
const outArg = process.argv.indexOf('--out');
const OUT = resolve(outArg === -1 ? join(here, '../../../docs/dashboard') : process.argv[outArg + 1]);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/**
 * The pages, in order (later ones see what earlier ones did). `path` (or what it returns) is opened (signed in unless `signedOut`),
 * `ready` is awaited, then `act` may open a dialog or run an action; `fullPage: false` shoots the viewport only.
 */
/** The three endpoints' ids by role, known once seeded (the webhook pages' paths need them). */
const endpointIds = {};

const PAGES = [
  { name: 'keys', path: '/dashboard/settings/api-keys', ready: '#keys-body tr' },
  {
    name: 'keys-create-dialog',
    path: '/dashboard/settings/api-keys',
    ready: '#keys-body tr',
    fullPage: false,
    act: async (page) => {
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Nightly export');
    },
  },
  {
    name: 'keys-roll-dialog',
    path: '/dashboard/settings/api-keys',
    ready: '#keys-body tr',
    fullPage: false,
    act: (page) => page.getByRole('button', { name: 'Roll key Production server' }).click(),
  },
  {
    name: 'keys-rolled',
    path: '/dashboard/settings/api-keys',
    ready: '#keys-body tr',
    act: async (page) => {
      await page.getByRole('button', { name: 'Roll key Production server' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Roll key' }).click();
      await page.locator('#new-key').waitFor();
    },
  },
  { name: 'activity', path: '/dashboard/settings/activity', ready: '#activity-body tr' },
  { name: 'webhooks', path: '/dashboard/settings/webhooks', ready: '#endpoints-body tr' },
  { name: 'webhook-endpoint', path: () => `/dashboard/settings/webhooks/${endpointIds.failing}`, ready: '#deliveries-body tr' },
  {
    name: 'webhook-delivery',
    path: () => `/dashboard/settings/webhooks/${endpointIds.failing}`,
    ready: '#deliveries-body tr',
    act: async (page) => {
      await page.locator('#deliveries-body a.delivery-link').first().click();
      await page.locator('#detail-attempts li').first().waitFor();
    },
  },
  {
    name: 'webhook-unreachable',
    path: () => `/dashboard/settings/webhooks/${endpointIds.unreachable}`,
    ready: '#deliveries-body tr',
  },
  {
    name: 'webhook-reveal-secret',
    path: () => `/dashboard/settings/webhooks/${endpointIds.healthy}`,
    ready: '#deliveries-body tr',
    act: async (page) => {
      await page.locator('#reveal').click();
      await page.locator('#secret').waitFor();
    },
  },

  {
    name: 'keys-create-restricted',
    path: '/dashboard/settings/api-keys',
    ready: '#keys-body tr',
    fullPage: false,
    act: async (page) => {
      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create a key' });
      await dialog.getByLabel('Name').fill('Reporting job');
      await dialog.getByRole('radio', { name: /Restricted key/ }).check();
      await dialog.getByRole('radiogroup', { name: 'Customers' }).getByRole('radio', { name: 'Read' }).check();
    },
  },
  { name: 'keys-test-mode', path: '/dashboard/settings/api-keys?mode=test', ready: '#keys-body tr' },
  { name: 'request-logs', path: '/dashboard/settings/request-logs', ready: '#logs-body tr' },
  {
    name: 'request-log-detail',
    path: '/dashboard/settings/request-logs',
    ready: '#logs-body tr',
    act: async (page) => {
      await page.getByRole('button', { name: /^POST \/api\/customers, 409/ }).first().click();
      await page.locator('#detail').waitFor({ state: 'visible' });
    },
  },
  { name: 'events', path: '/dashboard/settings/events', ready: '#events-list > li' },
  { name: 'customers', path: '/dashboard/settings/customers', ready: '#customers-body tr' },
  {
    name: 'customer-detail',
    path: '/dashboard/settings/customers',
    ready: '#customers-body tr',
    act: async (page) => {
      await page.locator('#customers-body tr button').first().click();
      await page.locator('#detail-events li').first().waitFor();
    },
  },

  // The webhooks pages go here (webhooks, an endpoint's page, a delivery's detail).
  { name: 'signed-out', path: '/dashboard/settings/api-keys', signedOut: true, ready: '#reason' },
  {
    name: 'sign-in',
    path: () => new URL(cli('sellers', 'login-link', '--seller', seller.id, '--base-url', base).url).search.replace(/^/, '/dashboard/login'),
    signedOut: true,
    ready: 'main h1',
  },
  { name: 'not-found', path: '/dashboard/settings/nope', ready: 'main h1' },
];

const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/** A webhook receiver answering every request with `status`. */
const receiver = (status) =>
  new Promise((done) => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(status).end(status === 500 ? 'upstream database unavailable' : ''));
    }).listen(0, '127.0.0.1', () => done(server));
  });

const dir = mkdtempSync(join(tmpdir(), 'dashboard-screenshots-'));
const database = `sqlite:${join(dir, 'dashboard.db')}`;
const cli = (...args) => JSON.parse(execFileSync(process.execPath, [CLI, ...args, '--database', database, '--json'], { encoding: 'utf8' }));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const healthy = await receiver(204);
const failing = await receiver(500);
const unreachable = await freePort();

const seller = cli('sellers', 'create', '--name', 'Acme Ltd', '--plan', 'growth');
const server = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--database', database, '--allow-private-webhooks', '--log-level', 'silent'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  await waitForServer();
  const context = await browser.newContext({ viewport: WIDTHS[0] });
  const page = await context.newPage();
  await page.goto(cli('sellers', 'login-link', '--seller', seller.id, '--base-url', base).url);
  await page.getByRole('button', { name: /^Sign in as / }).click();
  await page.waitForURL(/\/dashboard\/settings\//);
  const key = await seed(page);
  await createCustomers(key, 30);
  await waitForDeliveries(page);
  Object.assign(endpointIds, await endpointIdsOf(page));

  mkdirSync(OUT, { recursive: true });
  const signedOut = await browser.newContext({ viewport: WIDTHS[0] });
  for (const entry of PAGES) {
    const tab = entry.signedOut ? await signedOut.newPage() : page;
    await tab.setViewportSize(WIDTHS[0]);
    await tab.goto(`${base}${typeof entry.path === 'function' ? entry.path() : entry.path}`);
    await tab.locator(entry.ready).first().waitFor();
    await entry.act?.(tab);
    for (const viewport of WIDTHS) {
      await tab.setViewportSize(viewport);
      await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const file = join(OUT, `${entry.name}-${viewport.width}.png`);
      await tab.screenshot({ path: file, fullPage: entry.fullPage ?? true });
      console.log(file);
    }
    if (entry.signedOut) await tab.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  healthy.close();
  failing.close();
  rmSync(dir, { recursive: true, force: true });
}

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the server did not start at ${base}`);
}

/** Keys and endpoints through the dashboard's own API, as the pages make them; returns a usable API key. */
async function seed(page) {
  return page.evaluate(async ({ endpoints }) => {
    const call = async (method, path, body) => {
      const json = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      const response = await fetch(`/dashboard/api${path}`, { method, ...json });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const production = await call('POST', '/keys', { name: 'Production server' });
    await call('POST', '/keys', { name: 'Staging', expires_at: '2027-06-30' });
    const laptop = await call('POST', '/keys', { name: 'Old laptop' });
    await call('POST', `/keys/${laptop.id}/revoke`);
    await call('POST', '/keys', { name: 'Staging checkout', mode: 'test' });
    for (const url of endpoints) await call('POST', '/webhooks', { url, events: ['customer.created', 'customer.updated'] });
    return production.key;
  }, {
    endpoints: [
      `http://127.0.0.1:${healthy.address().port}/hooks/fulfilment`,
      `http://127.0.0.1:${failing.address().port}/hooks/crm-sync`,
      `http://127.0.0.1:${unreachable}/hooks/old-warehouse`,
    ],
  });
}

async function createCustomers(key, count) {
  for (let i = 1; i <= count; i += 1) {
    const response = await fetch(`${base}/api/customers`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Customer', last_name: String(i), email: `customer${i}@example.com` }),
    });
    if (response.status !== 201) throw new Error(`customer ${i}: ${response.status} ${await response.text()}`);
  }
  // One refused create, so the request log has an error to open.
  await fetch(`${base}/api/customers`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Customer', last_name: 'Again', email: 'customer1@example.com' }),
  });
}

/** Until the healthy endpoint has delivered everything (the others keep retrying), at most 30 s. */
async function waitForDeliveries(page) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const done = await page.evaluate(async () => {
      const { endpoints } = await (await fetch('/dashboard/api/webhooks')).json();
      const healthyEndpoint = endpoints.find((endpoint) => endpoint.url.endsWith('/hooks/fulfilment'));
      const { deliveries } = await (await fetch(`/dashboard/api/webhooks/${healthyEndpoint.id}/deliveries`)).json();
      return deliveries.length >= 30 && deliveries.every((delivery) => delivery.status === 'delivered');
    });
    if (done) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
  console.warn('deliveries still under way; shooting anyway');
}

/** The seeded endpoints' ids: healthy, failing (answers 500) and unreachable. */
async function endpointIdsOf(page) {
  return page.evaluate(async () => {
    const { endpoints } = await (await fetch('/dashboard/api/webhooks')).json();
    const idOf = (suffix) => endpoints.find((endpoint) => endpoint.url.endsWith(suffix)).id;
    return { healthy: idOf('/hooks/fulfilment'), failing: idOf('/hooks/crm-sync'), unreachable: idOf('/hooks/old-warehouse') };
  });
}
