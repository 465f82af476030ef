// Browser harness for the web apps' tests: Playwright (playwright-core) driving the system's
// Chromium, and axe-core accessibility checks. Separate entry: @sprout/testing/browser.
import * as fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export type { Browser, BrowserContext, Page } from 'playwright-core';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for headless Chromium in containers and CI: no sandbox, no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Chromium to drive: CHROMIUM_PATH, else the Debian package's binary. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

/** Launches headless Chromium; says how to get one when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!fs.existsSync(executablePath)) {
    throw new Error(
      `No Chromium at ${executablePath}. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export interface PageOptions {
  baseURL: string;
  viewport?: { width: number; height: number };
  /** Browser errors (uncaught exceptions, console errors) are collected here. */
  errors?: string[];
}

/** A fresh context (own cookies and storage) and a page in it. */
export async function openPage(
  browser: Browser,
  options: PageOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    reducedMotion: 'no-preference',
  });
  const page = await context.newPage();
  const errors = options.errors;
  if (errors) {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
  }
  return { context, page };
}

/** True when the page is wider than its viewport (a horizontal scroll bar). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  // This package compiles without the DOM library: the page's globals are described here.
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
}

export type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface A11yViolation {
  id: string;
  impact: AxeImpact | null;
  help: string;
  targets: string[];
}

export interface A11yOptions {
  /** Impacts that count; default serious and critical. */
  impacts?: AxeImpact[];
  /** CSS selectors left out of the check. */
  exclude?: string[];
}

let axeSource: string | undefined;

function readAxeSource(): string {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

interface AxeResultShape {
  violations: { id: string; impact?: AxeImpact | null; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * Runs axe-core (WCAG 2 A and AA rules and best practices) on the page as it is now and answers
 * the violations of the given impacts; an empty list means the page passes.
 */
export async function checkA11y(page: Page, options: A11yOptions = {}): Promise<A11yViolation[]> {
  const impacts = options.impacts ?? ['serious', 'critical'];
  // A dialog still fading in reads as low contrast: wait (on Node's timers, the page's may be
  // fake) until no animation runs, for up to 3 s.
  for (const deadline = Date.now() + 3_000; Date.now() < deadline;) {
    const running = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string }> } })
        .document;
      return doc.getAnimations().filter((a) => a.playState === 'running').length;
    });
    if (running === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const hasAxe = await page.evaluate(() => 'axe' in globalThis);
  // Evaluated over the DevTools protocol, which the pages' CSP (no inline scripts) does not govern.
  if (!hasAxe) await page.evaluate(readAxeSource());
  const result = await page.evaluate(async (exclude: string[]) => {
    const win = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<unknown> };
      document: unknown;
    };
    const axe = win.axe;
    const context =
      exclude.length > 0 ? { include: [['html']], exclude: exclude.map((s) => [s]) } : win.document;
    return axe.run(context, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
  }, options.exclude ?? []);
  return (result as AxeResultShape).violations
    .filter((v) => v.impact != null && impacts.includes(v.impact))
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
}
