// Issue 20, the desk in a real browser (Debian Chromium via playwright-core) against the real
// server with the demo catalogue (ADR 0082):
//   - staff scan Ben's library card, then two barcodes: the loans hold exactly those copies;
//   - a refused scan (a copy already on loan, an unknown barcode) shows the desk again with the
//     message, the scanned text kept in the field and the focus on it;
//   - a copy Anna holds is checked in: the page says it goes to the hold shelf for her, and her
//     hold-ready mail arrives at a real SMTP server (the `smtp-server` package on 127.0.0.1) that
//     the server's own notice timer sends to (ADR 0085), and is listed among her notices (ADR 0092);
//   - axe-core finds no serious or critical violation on any page of the desk and the patron's
//     flows, at 1280 and 390 px.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, seriousViolations, tabsPerViewer } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../kit/mail/smtp.ts';
import {
  locationPath,
  logIn,
  request,
  startShelfmark,
  type Session,
  type Shelfmark,
} from '../access/server.ts';

describe('the desk in Chromium: card, barcodes, check-in to the hold shelf', skipUnless('chromium'), () => {
  let server: Shelfmark;
  let smtp: TestSmtp;
  let browser: Browser;
  let staff: Session;
  let anna: Session;
  let ben: Session;
  let benCard: string;

  const api = (s: Session, method: string, path: string, body?: unknown) =>
    request(server.base, s, method, path, body);
  const json = async <T>(s: Session, path: string): Promise<T> => {
    const response = await api(s, 'GET', path);
    assert.equal(response.status, 200, path);
    return (await response.json()) as T;
  };
  /** A new work with `count` copies: its slug and the copies' barcodes, lowest number first. */
  async function newWork(
    titel: string,
    count: number,
  ): Promise<{ slug: string; barcodes: string[]; urls: string[] }> {
    const response = await api(staff, 'POST', '/werke', { titel, exemplare: count, jahr: 1900 });
    assert.equal(response.status, 201, titel);
    const slug = locationPath(response).replace('/werke/', '');
    const copies = await json<{ exemplar: { barcode: string; url: string }[] }>(
      staff,
      `/werke/${slug}/exemplare`,
    );
    return { slug, barcodes: copies.exemplar.map((c) => c.barcode), urls: copies.exemplar.map((c) => c.url) };
  }
  /** The URLs of the copies a person has on loan, oldest loan first. */
  const loanCopies = async (personId: number) =>
    (
      await json<{ ausleihe: { exemplar?: { url: string } }[] }>(staff, `/ausleihen/${personId}`)
    ).ausleihe.map((l) => l.exemplar?.url);

  before(async () => {
    smtp = await startTestSmtp();
    server = await startShelfmark('shelfmark-desk-', {
      SHELFMARK_SMTP_HOST: '127.0.0.1',
      SHELFMARK_SMTP_PORT: String(smtp.port),
      SHELFMARK_SMTP_FROM: 'Bibliothek <bibliothek@example.org>',
      SHELFMARK_NOTICE_INTERVAL: '1',
    });
    staff = await logIn(server.base, 'personal');
    anna = await logIn(server.base, 'anna');
    ben = await logIn(server.base, 'ben');
    benCard = (await json<{ ausweis: string }>(staff, `/konto?id=${ben.personId}`)).ausweis;
    // Anna's private address, set in the database as an administrator would (only she gets mail).
    const db = new DatabaseSync(server.databaseFile);
    try {
      db.exec('pragma busy_timeout = 5000');
      db.prepare(`update accounts set email = ?, language = 'de' where person_id = ?`).run(
        'anna@example.org',
        anna.personId,
      );
    } finally {
      db.close();
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.dispose();
    await smtp?.stop();
  });

  /** The first mail (in arrival order) that `match` accepts: waits for each arrival, no sleeping. */
  async function mailWhere(match: (m: ReceivedMail) => boolean): Promise<ReceivedMail> {
    for (let n = 1; ; n++) {
      await smtp.arrived(n);
      const mail = smtp.received[n - 1]!;
      if (match(mail)) return mail;
    }
  }

  const newPage = (who: Session | null, width = 1280) =>
    openPage(browser, { width, ...(who && { session: { base: server.base, cookie: who.cookie } }) });

  const focusedId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id');

  test('scan a card, two barcodes, a refused scan, and check in a copy Anna holds', async () => {
    const faust = await newWork('Thekenfaust', 3);
    const moby = await newWork('Thekenwal', 1);
    const before = await loanCopies(ben.personId);
    const { context, page } = await newPage(staff);
    try {
      await page.goto(`${server.base}/theke`);
      assert.equal(await focusedId(page), 'ausweis', 'the card field has the focus');
      await page.keyboard.type(`${benCard}\n`);
      await page.getByRole('heading', { name: /^Ausleihe an / }).waitFor();
      assert.equal(await focusedId(page), 'barcode');

      // Two scans: the third copy of one work, the only copy of another.
      for (const barcode of [faust.barcodes[2]!, moby.barcodes[0]!]) {
        await page.keyboard.type(`${barcode}\n`);
        await page.getByText(`(${barcode}) ist ausgeliehen`).waitFor();
        assert.equal(await focusedId(page), 'barcode', 'ready for the next scan');
      }
      assert.deepEqual(await loanCopies(ben.personId), [...before, faust.urls[2], moby.urls[0]]);

      // A refused scan: Ben has this work already. The page stays the desk, field and focus kept.
      await page.keyboard.type(`${moby.barcodes[0]!}\n`);
      await page.getByText('Dieses Werk ist bereits an diese Person ausgeliehen').waitFor();
      assert.equal(await focusedId(page), 'barcode');
      assert.equal(await page.inputValue('#barcode'), moby.barcodes[0]);
      assert.equal(await page.getByText('Zur Startseite').count(), 0);
      await page.fill('#barcode', 'GIBT-ES-NICHT');
      await page.keyboard.press('Enter');
      await page.getByText('Kein Exemplar hat diesen Barcode').waitFor();
      assert.equal(await focusedId(page), 'barcode');

      // Anna holds the whale; Ben brings it back: the check-in says hold shelf for her.
      const held = await api(anna, 'POST', '/personen/anna-berger/vormerkungen', { werk: moby.slug });
      assert.equal(held.status, 201);
      await page.getByRole('link', { name: 'Rückgabe' }).click();
      await page.waitForURL(`${server.base}/rueckgabe`);
      assert.equal(await focusedId(page), 'barcode');
      await page.keyboard.type(`${moby.barcodes[0]!}\n`);
      await page.getByText('Ins Abholregal für Anna Berger').waitFor();
      assert.equal(await focusedId(page), 'barcode');
      // Her hold-ready mail arrives, in German, with the pickup deadline; her notices list it.
      const mail = await mailWhere((m) => m.subject === 'Abholbereit: „Thekenwal“');
      assert.equal(mail.to, 'anna@example.org');
      assert.equal(mail.language, 'de');
      assert.match(mail.text, /Bitte holen Sie es bis zum \d+\. \p{L}+ \d{4} ab/u);
      const notices = await json<{ benachrichtigung: { art: string; betreff: string; an: string }[] }>(
        anna,
        '/personen/anna-berger/benachrichtigungen',
      );
      assert.ok(
        notices.benachrichtigung.some(
          (x) => x.art === 'hold-ready' && x.betreff === mail.subject && x.an === 'anna@example.org',
        ),
        JSON.stringify(notices),
      );
      // Scanned again: not on loan; the check-in page stays, with the message.
      await page.keyboard.type(`${moby.barcodes[0]!}\n`);
      await page.getByText('Dieses Exemplar ist nicht ausgeliehen').waitFor();
      assert.equal(await focusedId(page), 'barcode');
      assert.deepEqual(await loanCopies(ben.personId), [...before, faust.urls[2]]);
    } finally {
      await context.close();
    }
  });

  for (const width of [1280, 390]) {
    test(`axe: no serious or critical violation on the desk's and the patron's pages at ${width} px`, async () => {
      const work = await newWork(`Axe-Werk ${width}`, 1);
      const pages: [Session | null, string][] = [
        [staff, '/theke'],
        [staff, `/theke?ausweis=${benCard}`],
        [staff, '/theke?ausweis=Ben'],
        [staff, '/theke?ausweis=zzzz'],
        [staff, '/rueckgabe'],
        [staff, `/rueckgabe?barcode=${work.barcodes[0]}`],
        [staff, `/werke/${work.slug}`],
        [anna, `/ausleihen/${anna.personId}`],
        [anna, '/personen/anna-berger/vormerkungen'],
        [anna, '/personen/anna-berger/konto'],
        [anna, `/werke/${work.slug}`],
        [null, `/werke/${work.slug}`],
      ];
      const problems: string[] = [];
      const tabs = tabsPerViewer((viewer: (typeof pages)[number][0]) => newPage(viewer, width));
      try {
        for (const [who, path] of pages) {
          const page = await tabs.page(who);
          const response = await page.goto(server.base + path, { waitUntil: 'load' });
          assert.equal(response?.status(), 200, path);
          for (const v of await seriousViolations(page)) problems.push(`${path}: ${v}`);
        }
      } finally {
        await tabs.close();
      }
      assert.deepEqual(problems, []);
    });
  }
});
