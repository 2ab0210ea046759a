import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DatabaseHandle } from '../db/connect.js';
import { errorBody, type TestServer } from '../test/test-server.js';
import { createLoginLink, loginLinkUrl, peekLoginLink } from './login-links.js';

/** Same-origin headers, as the dashboard page itself sends them. */
export function sameOrigin(server: TestServer): Record<string, string> {
  return { origin: server.url };
}

/** A request that does not follow redirects (the sign-in POST answers 303). */
export async function rawCall(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const response = await fetch(`${server.url}${path}`, { method, headers, body, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * Posts the sign-in form of a login link as the browser does when its "Sign in as NAME" button is clicked
 * (`sign_in_as` = the link's seller, same origin), or the given form (`{}`: an empty one, as a page that submits
 * itself would send).
 */
export async function postLogin(
  server: TestServer,
  token: string,
  headers: Record<string, string> = sameOrigin(server),
  form?: Record<string, string>,
) {
  const seller = form ? undefined : await peekLoginLink(server.handle, token).catch(() => undefined);
  const fields = form ?? (seller ? { sign_in_as: seller } : {});
  const body = new URLSearchParams(fields).toString();
  return rawCall(server, 'POST', `/dashboard/login?token=${token}`, {
    'content-type': 'application/x-www-form-urlencoded',
    ...headers,
  }, body);
}

/** Uses a fresh login link for the seller; returns the session cookie pair (`dashboard_session=…`). */
export async function signIn(server: TestServer, sellerId: string, now?: Date): Promise<string> {
  const { token } = await createLoginLink(server.handle, sellerId, now);
  const response = await postLogin(server, token);
  expect(response.status).toBe(303);
  return (response.headers.get('set-cookie') ?? '').split(';', 1)[0]!;
}

/**
 * A new browser context at `viewport`, signed in as the seller in Chromium through a fresh login link (its "Sign in
 * as" button clicked, as a seller does), on the API Keys page with its first key listed. Close the context after.
 */
export async function signedInPage(
  browser: Browser,
  server: { url: string; database: DatabaseHandle },
  sellerId: string,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(loginLinkUrl(server.url, (await createLoginLink(server.database, sellerId)).token));
  await page.getByRole('button', { name: /^Sign in as / }).click();
  await page.waitForURL(/\/dashboard\/settings\/api-keys/);
  await page.locator('#keys-body tr').first().waitFor();
  return { context, page };
}

/**
 * The dashboard API's error body for a 400 or 409: core's two properties, plus `field` (the property the refusal is
 * about) when the message names one first: `events[0] must be a string` → `events`; `body must…` names none.
 */
export function fieldErrorBody(error: string, message: string | RegExp, field: string | undefined = fieldNamedBy(message)) {
  return { ...errorBody(error, message), ...(field === undefined ? {} : { field }) };
}

function fieldNamedBy(message: string | RegExp): string | undefined {
  if (typeof message !== 'string') return expect.any(String) as unknown as string;
  const name = /^([a-z_]+)(?=[\s[:])/.exec(message)?.[1];
  return name === 'body' ? undefined : name;
}
