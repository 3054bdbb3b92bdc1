// Issue 11 item 5 in a real browser: with the Content-Security-Policy every page is sent with
// (no inline script or style), Chromium reports no violation on the pages that use the
// stylesheet, forms and the error log's live script — and that script still runs: it opens
// its event stream (/protokoll/fehler/live), which it could not if it were blocked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';
import { launchBrowser } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';

describe('pages under the Content-Security-Policy in Chromium', skipUnless('chromium'), () => {
  let server: Catalogue;
  let browser: Browser;
  before(async () => {
    server = await startCatalogue();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('no violations; the error log opens its live stream', async () => {
    const context = await browser.newContext({
      // Staff by Basic on every request: the error log answers 403 (not 401) to anonymous.
      extraHTTPHeaders: { authorization: STAFF_AUTHORIZATION },
    });
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      for (const path of ['/', '/werke/faust', '/personen/goethe', '/sitzung']) {
        const response = await page.goto(server.url(path));
        assert.equal(response?.status(), 200, path);
        assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
        const styled = (await page.evaluate('document.styleSheets.length')) as number;
        assert.ok(styled > 0, `${path}: the stylesheet applies`);
      }
      const streams: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/protokoll/fehler/live')) streams.push(request.url());
      });
      const response = await page.goto(server.url('/protokoll/fehler'));
      assert.equal(response?.status(), 200, await response?.text());
      const script = await page.evaluate('document.querySelector("script[src]")?.getAttribute("src")');
      assert.equal(script, '/static/fehlerprotokoll.js');
      if (streams.length === 0)
        await page
          .waitForRequest((request) => request.url().includes('/protokoll/fehler/live'), {
            timeout: 10_000,
          })
          .catch(() => undefined);
      assert.equal(streams.length > 0, true, 'the live script ran and opened its event stream');
      assert.deepEqual(violations, []);
    } finally {
      await context.close();
    }
  });
});
