import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, seriousViolations } from './browser.ts';
import { skipUnless } from './requirements.ts';

const page = `<!doctype html><html lang="de"><title>Katalog</title>
<h1>Werke</h1><button onclick="document.querySelector('h1').textContent='geklickt'">Los</button></html>`;

describe('launchBrowser and screenshot', skipUnless('chromium'), () => {
  const server = createServer((req, res) =>
    req.url === '/echo'
      ? res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`${req.headers['accept-language']}|${req.headers.cookie ?? ''}`)
      : res.writeHead(200, { 'content-type': 'text/html' }).end(page),
  );
  let browser: Browser;
  let base = '';
  let dir = '';

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    dir = await mkdtemp(path.join(tmpdir(), 'shelfmark-shot-'));
  });
  after(async () => {
    await browser?.close();
    server.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('axe names a serious violation (an unlabelled field) and passes a labelled one', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.setContent(
      '<!doctype html><html lang="de"><title>F</title><main><input type="text"></main></html>',
    );
    const found = await seriousViolations(tab);
    assert.ok(
      found.some((v) => v.startsWith('label (critical)')),
      found.join('; '),
    );
    await tab.setContent(
      '<!doctype html><html lang="de"><title>F</title><main><label>Name <input type="text"></label></main></html>',
    );
    assert.deepEqual(await seriousViolations(tab), []);
    await context.close();
  });

  test('the browser loads a local page and runs its script', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${base}/werke`);
    assert.equal(await tab.title(), 'Katalog');
    await tab.getByRole('button', { name: 'Los' }).click();
    assert.equal(await tab.locator('h1').textContent(), 'geklickt');
    await context.close();
  });

  test('openPage: German unless told, the width asked for, the session cookie sent to its base', async () => {
    const plain = await openPage(browser);
    await plain.page.goto(`${base}/echo`);
    assert.match(await plain.page.locator('body').innerText(), /^de-DE[^|]*\|$/);
    assert.equal(plain.page.viewportSize()?.width, 1280);
    await plain.context.close();
    const logged = await openPage(browser, {
      width: 390,
      locale: 'en-GB',
      session: { base, cookie: 'shelfmark_session=abc' },
    });
    await logged.page.goto(`${base}/echo`);
    assert.match(await logged.page.locator('body').innerText(), /^en-GB[^|]*\|shelfmark_session=abc$/);
    assert.equal(logged.page.viewportSize()?.width, 390);
    await logged.context.close();
  });

  test('screenshot writes a PNG of the page, with a given or its own browser', async () => {
    for (const options of [{ browser }, {}]) {
      const file = path.join(dir, `page-${options.browser ? 'shared' : 'own'}.png`);
      assert.equal(await screenshot(`${base}/`, file, { ...options, width: 640, height: 480 }), file);
      const png = await readFile(file);
      assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
      assert.equal(png.readUInt32BE(16), 640); // IHDR width
    }
  });
});
