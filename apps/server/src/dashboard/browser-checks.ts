// Checks every dashboard browser test can run on a page state: axe-core's rules, and nothing wider than its box.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium unless CHROMIUM_PATH says otherwise. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for a browser test: fails at once, saying how to fix it, when the binary is missing; no
 * background networking (this machine's closed network refuses it, many connections at a time).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (WCAG 2.0–2.2 A/AA, best practices and the experimental rules) on the page as it is now and expects no
 * violation. axe is evaluated through the DevTools protocol, so the page's CSP (no inline scripts) stays on.
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    type Axe = { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
    // The experimental rules too: label-content-name-mismatch (WCAG 2.5.3) is one of them.
    const result = await (window as unknown as { axe: Axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'] },
    });
    return result.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.map((node) => ({ target: node.target })) }));
  });
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), state).toEqual([]);
}

/** Nothing scrolls sideways: the page fits the viewport and every table card (`.table-wrap`) fits its content. */
export async function expectFits(page: Page, state: string): Promise<void> {
  const overflowing = await page.evaluate(() => {
    const wide: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) wide.push(`page ${root.scrollWidth} > ${root.clientWidth}`);
    document.querySelectorAll<HTMLElement>('.table-wrap, .card').forEach((box, index) => {
      if (box.offsetParent !== null && box.scrollWidth > box.clientWidth) {
        wide.push(`${box.className} #${index} ${box.scrollWidth} > ${box.clientWidth}`);
      }
    });
    return wide;
  });
  expect(overflowing, state).toEqual([]);
}

/**
 * No word of the matched elements' text is split over two lines ("Productio / n checkout", "Resen / d"): each word
 * (up to `longest` characters; a longer unbroken one may break anywhere rather than widen its box) keeps to one line.
 */
export async function expectWholeWords(page: Page, selector: string, state: string, longest = 24): Promise<void> {
  const broken = await page.evaluate(({ selector, longest }) => {
    const found: string[] = [];
    for (const box of document.querySelectorAll<HTMLElement>(selector)) {
      if (box.offsetParent === null) continue;
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          if (match[0].length > longest) continue;
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) found.push(`${match[0]} in ${selector}`);
        }
      }
    }
    return found;
  }, { selector, longest });
  expect(broken, state).toEqual([]);
}
