// Headless Debian Chromium driven by playwright-core (which never downloads a browser of its
// own). The flags keep Chromium off the network: this machine's closed network otherwise
// refuses its background connections by the dozen.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_PATH } from './requirements.ts';

export const CHROMIUM_ARGS = [
  '--no-sandbox', // tests run as root, where Chromium's sandbox refuses to start
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts headless Chromium. Playwright gives every launch a fresh, empty profile
 * (user-data dir) of its own and deletes it on `browser.close()`: close it in `after()`.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Fails a step quickly instead of waiting for the test timeout. */
export const STEP_TIMEOUT_MS = 10_000;

export interface PageOptions {
  /** The viewport's width (800 px high); default 1280. */
  readonly width?: number;
  /** Default German, so the labels are the ones the tests look for whatever the machine's locale. */
  readonly locale?: string;
  /** A session cookie (`name=value`) set for `base`: the page is logged in. */
  readonly session?: { readonly base: string; readonly cookie: string };
}

/** A new context on `browser` (close it when done) and a page in it; every step times out after STEP_TIMEOUT_MS. */
export async function openPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: options.locale ?? 'de-DE',
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  if (options.session) {
    const [name, value] = options.session.cookie.split('=', 2) as [string, string];
    await context.addCookies([{ name, value, url: options.session.base }]);
  }
  return { context, page: await context.newPage() };
}

/**
 * One tab per viewer, kept for a sweep of pages (close() when done). A context and a tab per
 * page cost ≈ 0.5 s to open, and axe-core's 550 kB were compiled afresh in each (≈ 0.7 s); one
 * tab's renderer compiles them once and reuses the code on every later page.
 */
export function tabsPerViewer<K>(open: (viewer: K) => Promise<{ context: BrowserContext; page: Page }>): {
  page(viewer: K): Promise<Page>;
  close(): Promise<void>;
} {
  const tabs = new Map<K, Promise<{ context: BrowserContext; page: Page }>>();
  return {
    async page(viewer) {
      let tab = tabs.get(viewer);
      if (tab === undefined) tabs.set(viewer, (tab = open(viewer)));
      return (await tab).page;
    },
    async close() {
      await Promise.all([...tabs.values()].map(async (tab) => (await tab).context.close()));
    },
  };
}

/** Logs `username` in through the German form at `base`/sitzung (password = name, as in the demo). */
export async function logInWithForm(page: Page, base: string, username: string): Promise<void> {
  await page.goto(`${base}/sitzung`);
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort').fill(username);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.waitForURL(`${base}/`);
  await page.getByText(`angemeldet als ${username}`).waitFor();
}

/**
 * Saves a full-page PNG of `url` to `file` (after the load event). Uses `browser` when
 * given, otherwise launches and closes one; returns `file`.
 */
export async function screenshot(
  url: string,
  file: string,
  options: { browser?: Browser; width?: number; height?: number } = {},
): Promise<string> {
  const browser = options.browser ?? (await launchBrowser());
  try {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    });
    try {
      const page = await context.newPage();
      const response = await page.goto(url, { waitUntil: 'load' });
      if (!response) throw new Error(`no response for ${url}`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    } finally {
      await context.close();
    }
  } finally {
    if (!options.browser) await browser.close();
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string; nodes: { target: string[] }[] };

/** axe-core's serious and critical violations on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })))',
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
