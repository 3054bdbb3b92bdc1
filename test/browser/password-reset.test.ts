// Issue 20 / ADR 0093 in a real browser (Debian Chromium via playwright-core) against a real
// `shelfmark serve` with the demo catalogue and a real SMTP server on 127.0.0.1:
//   - Anna opens "Mein Konto", then her settings, and enters her e-mail address;
//   - signed out, she follows "Passwort vergessen?", asks for a link, reads it in the mail that
//     arrived at the SMTP server, opens it, sets a new password and logs in with it; her old
//     session has ended, and the access log holds no trace of the link's token;
//   - axe-core: no serious or critical violation on those pages and on staff's rules pages, at
//     1280 and 390 px; the Nu HTML checker: no error on any of them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, seriousViolations, tabsPerViewer } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';
import { serveShelfmark, type ServedShelfmark } from '../kit/serve.ts';
import { startTestSmtp, type TestSmtp } from '../kit/mail/smtp.ts';
import { htmlReport } from '../kit/html-report.ts';
import { logIn, type Session } from '../access/server.ts';

const NEW_PASSWORD = 'annas-neues-passwort';

describe('settings and password reset in Chromium', skipUnless('chromium'), () => {
  let dir: string;
  let server: ServedShelfmark;
  let smtp: TestSmtp;
  let browser: Browser;
  let staff: Session;
  /** Pages seen on the way, for the Nu checker. */
  const seen: { name: string; html: string }[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shelfmark-reset-'));
    smtp = await startTestSmtp();
    server = await serveShelfmark({
      databaseUrl: join(dir, 'shelfmark.db'),
      dir,
      env: {
        SHELFMARK_SMTP_HOST: '127.0.0.1',
        SHELFMARK_SMTP_PORT: String(smtp.port),
        SHELFMARK_SMTP_TLS: 'off',
        SHELFMARK_NOTICE_INTERVAL: '0',
      },
    });
    staff = await logIn(server.base, 'personal');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const newPage = (cookie: string | null, width = 1280) =>
    openPage(browser, { width, ...(cookie && { session: { base: server.base, cookie } }) });
  const keep = async (name: string, page: Page) => seen.push({ name, html: await page.content() });

  test('the address in the settings, then: forgotten password, the mail, the link, the new password, log-in', async () => {
    const anna = await logIn(server.base, 'anna');
    const own = await newPage(anna.cookie);
    try {
      await own.page.goto(server.base);
      await own.page.getByRole('link', { name: 'Mein Konto' }).click();
      await own.page.getByRole('link', { name: 'Einstellungen' }).click();
      await own.page.waitForURL(`${server.base}/personen/anna-berger/konto/einstellungen`);
      await keep('settings', own.page);
      await own.page.getByLabel('E-Mail-Adresse').fill('anna.berger@example.org');
      await own.page.getByLabel('Ihr Passwort').fill('anna');
      await own.page.getByRole('button', { name: 'Einstellungen speichern' }).click();
      await own.page.waitForURL(`${server.base}/personen/anna-berger/konto/einstellungen`);
      assert.equal(await own.page.getByLabel('E-Mail-Adresse').inputValue(), 'anna.berger@example.org');
    } finally {
      await own.context.close();
    }

    const { context, page } = await newPage(null);
    try {
      await page.goto(`${server.base}/sitzung`);
      await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
      await page.waitForURL(`${server.base}/passwort-vergessen`);
      await keep('request', page);
      await page.getByLabel('Benutzername oder E-Mail-Adresse').fill('anna.berger@example.org');
      await page.getByRole('button', { name: 'Link anfordern' }).click();
      await page.getByRole('status').waitFor();
      await keep('requested', page);
      await smtp.arrived(1);
      const mail = smtp.received[0]!;
      assert.equal(mail.to, 'anna.berger@example.org');
      const link = new RegExp(`${server.base}/passwort-neu/[A-Za-z0-9_-]{43}`).exec(mail.text)?.[0];
      assert.ok(link, `the link in the mail: ${mail.text}`);

      await page.goto(link);
      await page.getByRole('heading', { name: 'Neues Passwort festlegen' }).waitFor();
      await keep('reset', page);
      assert.deepEqual(await seriousViolations(page), [], 'axe on the link’s page');
      await page.getByLabel('Neues Passwort', { exact: false }).first().fill(NEW_PASSWORD);
      await page.getByLabel('Neues Passwort wiederholen', { exact: false }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Passwort festlegen' }).click();
      await page.waitForURL(`${server.base}/sitzung`);
      await page.fill('#anmeldung-name', 'anna');
      await page.fill('#anmeldung-passwort', NEW_PASSWORD);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByRole('link', { name: 'Mein Konto' }).waitFor();

      // The link is spent; the session from before the reset has ended.
      const again = await page.goto(link);
      assert.equal(again?.status(), 410);
      const before = await fetch(`${server.base}/sitzung.json`, { headers: { cookie: anna.cookie } });
      assert.equal(((await before.json()) as { angemeldet: boolean }).angemeldet, false);

      // The token is in no access-log line: not the link's requests, not a Referer.
      const log = readFileSync(join(dir, 'logs', 'access.log'), 'latin1');
      const token = link.split('/').pop()!;
      assert.ok(!log.includes(token), 'the access log does not hold the token');
      assert.match(log, /"GET \/passwort-neu\/\*\*\*\*\* HTTP\/1\.1" 200 /);
      assert.match(log, /"POST \/passwort-neu\/\*\*\*\*\* HTTP\/1\.1" 303 /);
    } finally {
      await context.close();
    }
  });

  for (const width of [1280, 390]) {
    test(`axe: no serious or critical violation on the settings, reset and rules pages at ${width} px`, async () => {
      const ben = await logIn(server.base, 'ben');
      const pages: [string | null, string][] = [
        [ben.cookie, '/personen/ben-krueger/konto/einstellungen'],
        [ben.cookie, '/personen/ben-krueger/konto'],
        [null, '/passwort-vergessen'],
        [null, '/passwort-vergessen?angefordert'],
        [null, '/sitzung'],
        [staff.cookie, '/ausleihregeln/medientypen'],
        [staff.cookie, '/ausleihregeln/medientypen/dvd'],
        [staff.cookie, '/ausleihregeln/schliesstage'],
      ];
      const problems: string[] = [];
      const tabs = tabsPerViewer((viewer: (typeof pages)[number][0]) => newPage(viewer, width));
      try {
        for (const [cookie, path] of pages) {
          const page = await tabs.page(cookie);
          const response = await page.goto(server.base + path, { waitUntil: 'load' });
          assert.equal(response?.status(), 200, path);
          for (const v of await seriousViolations(page)) problems.push(`${path}: ${v}`);
          if (width === 1280) await keep(path, page);
        }
      } finally {
        await tabs.close();
      }
      assert.deepEqual(problems, []);
    });
  }

  test('the Nu HTML checker finds no error on the pages seen', skipUnless('java'), async () => {
    assert.ok(seen.length >= 10, `pages seen: ${seen.length}`);
    assert.equal(await htmlReport(seen), '');
  });
});
