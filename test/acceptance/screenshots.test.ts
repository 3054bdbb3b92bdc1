// Issue 2 acceptance: the home, a person, a work and a search page in a real browser (Debian
// Chromium), screenshotted into /tmp/shots/ (desktop and phone width) for a human to look at.
// Asserted: each page loads with 200, its stylesheet and portrait load, the browser reports no
// error, and nothing is wider than the window (no sideways scrolling on a phone).
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';
import { startCatalogue, type Catalogue } from './catalogue-server.ts';

const SHOTS = '/tmp/shots';
const PAGES: [name: string, path: string][] = [
  ['home', '/'],
  ['person', '/personen/goethe'],
  ['work', '/werke/faust'],
  ['search', '/werke?q=faust'],
];
const VIEWPORTS: [name: string, width: number, height: number][] = [
  ['desktop', 1280, 800],
  ['phone', 375, 740],
];

type PageFacts = {
  stylesheets: number;
  bodyFont: string;
  scrollWidth: number;
  brokenImages: string[];
  headerBackground: string;
  headerLinks: { text: string; color: string }[];
};

// Runs in the page (a string: the project's TypeScript has no DOM types).
const PAGE_FACTS = `({
  stylesheets: document.styleSheets.length,
  bodyFont: getComputedStyle(document.body).fontFamily,
  scrollWidth: document.documentElement.scrollWidth,
  brokenImages: [...document.images]
    .filter((img) => !img.complete || img.naturalWidth === 0)
    .map((img) => img.src),
  headerBackground: getComputedStyle(document.querySelector('header.site')).backgroundColor,
  headerLinks: [...document.querySelectorAll('header.site a')].map((a) => ({
    text: a.textContent.trim(),
    color: getComputedStyle(a).color,
  })),
})`;

describe('pages in a real browser', skipUnless('chromium'), () => {
  let c: Catalogue;
  let browser: Browser;
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    c = await startCatalogue();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await c?.stop();
  });

  for (const [viewport, width, height] of VIEWPORTS) {
    for (const [name, pagePath] of PAGES) {
      test(`${name} (${viewport}) renders with its stylesheet and fits the window`, async () => {
        const context = await browser.newContext({ viewport: { width, height }, locale: 'de-DE' });
        try {
          const page = await context.newPage();
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          page.on('console', (message) => {
            if (message.type() === 'error') errors.push(message.text());
          });
          const failed: string[] = [];
          page.on('response', (response) => {
            if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
          });
          const response = await page.goto(c.origin + pagePath, { waitUntil: 'load' });
          assert.equal(response?.status(), 200);
          const facts = (await page.evaluate(PAGE_FACTS)) as PageFacts;
          // Every header link must be readable on the header's colour (WCAG AA, 4.5:1).
          const unreadable = facts.headerLinks
            .filter((link) => contrast(link.color, facts.headerBackground) < 4.5)
            .map((link) => `${link.text}: ${link.color} on ${facts.headerBackground}`);
          assert.deepEqual(unreadable, [], 'header links contrast with the header');
          assert.equal(facts.stylesheets, 1, 'the stylesheet is loaded');
          // The stylesheet sets the page's font; the browser default is Times New Roman.
          assert.notEqual(facts.bodyFont, 'Times New Roman', 'the stylesheet applies');
          assert.deepEqual(facts.brokenImages, [], 'every image loads');
          assert.ok(
            facts.scrollWidth <= width,
            `no sideways scrolling: ${facts.scrollWidth}px in ${width}px`,
          );
          assert.deepEqual(failed, [], 'no request fails');
          assert.deepEqual(errors, [], 'no browser errors');
          const file = path.join(SHOTS, `${name}-${viewport}.png`);
          await page.screenshot({ path: file, fullPage: true });
          assert.ok(statSync(file).size > 5000, `${file} was written`);
        } finally {
          await context.close();
        }
      });
    }
  }
});

/** WCAG contrast ratio of two CSS rgb()/rgba() colours (alpha ignored). */
function contrast(a: string, b: string): number {
  const luminance = (color: string): number => {
    const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
