// Issue 20, the staff lists and the notices (ADR 0092) against the real server with the demo
// catalogue, with circulation made through the API (a copy checked in onto the hold shelf for
// Anna, an overdue loan of Ben's, notices of Anna's):
//   - staff find the lists in the header and on the desk; a member does not;
//   - every new page: axe-core finds no serious or critical violation at 1280 and 390 px
//     (Chromium), and the Nu HTML checker no error (German and English);
//   - Anna finds her notices from "Mein Konto";
//   - the XML of every list from the real server is valid against its schema, and paging links
//     keep a suffix;
//   - the overdue loans print without the header, navigation, filter and paging.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, seriousViolations, tabsPerViewer } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';
import { htmlReport } from '../kit/html-report.ts';
import { validateXml } from '../support/xml.ts';
import { schemaFile, type SchemaName } from '../../src/catalogue/schemas/index.ts';
import {
  locationPath,
  logIn,
  request,
  startShelfmark,
  type Session,
  type Shelfmark,
} from '../access/server.ts';

const DAY = 86_400_000;

describe('the staff lists and the notices in Chromium and the Nu checker', skipUnless('chromium'), () => {
  let server: Shelfmark;
  let browser: Browser;
  let staff: Session;
  let anna: Session;
  let ben: Session;

  const api = (s: Session, method: string, path: string, body?: unknown) =>
    request(server.base, s, method, path, body);

  /** A new work with one copy, lent to Ben, held by Anna and checked in: kept for her. */
  async function keptForAnna(titel: string): Promise<string> {
    const made = await api(staff, 'POST', '/werke', { titel, exemplare: 1, jahr: 1900 });
    assert.equal(made.status, 201, titel);
    const slug = locationPath(made).replace('/werke/', '');
    assert.equal((await api(staff, 'POST', `/ausleihen/${ben.personId}`, { werk: slug })).status, 201);
    assert.equal((await api(anna, 'POST', '/personen/anna-berger/vormerkungen', { werk: slug })).status, 201);
    const copies = (await (await api(staff, 'GET', `/werke/${slug}/exemplare`)).json()) as {
      exemplar: { barcode: string }[];
    };
    const barcode = copies.exemplar[0]!.barcode;
    assert.equal((await api(staff, 'POST', '/rueckgabe', { barcode })).status, 200);
    return barcode;
  }

  before(async () => {
    server = await startShelfmark('shelfmark-lists-');
    staff = await logIn(server.base, 'personal');
    anna = await logIn(server.base, 'anna');
    ben = await logIn(server.base, 'ben');
    await keptForAnna('Regalstück');
    const expired = await keptForAnna('Vergessenes Regalstück');
    for (const titel of ['Mahnwerk eins', 'Mahnwerk zwei']) {
      const made = await api(staff, 'POST', '/werke', { titel, exemplare: 1, jahr: 1900 });
      const werk = locationPath(made).replace('/werke/', '');
      assert.equal((await api(staff, 'POST', `/ausleihen/${ben.personId}`, { werk })).status, 201);
    }
    // Circulation in the past, written as the clock would have left it.
    const db = new DatabaseSync(server.databaseFile);
    try {
      db.exec('pragma busy_timeout = 5000');
      const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
      db.prepare(
        `update holds set expires_at = ?, ready_at = ? where copy_id = (select id from copies where barcode = ?)`,
      ).run(ago(1), ago(8), expired);
      db.prepare(
        `update loans set due_at = ?, borrowed_at = ? where person_id = ? and returned_at is null`,
      ).run(ago(10), ago(38), ben.personId);
      const insert = db.prepare(`insert into notices (kind, subject_id, occasion, person_id, email, language,
        subject, body, state, attempts, next_attempt_at, last_error, created_at, sent_at, updated_at)
        values (?, ?, ?, ?, 'anna@example.org', 'de', ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      const at = ago(2);
      insert.run(
        'hold-ready',
        1,
        at,
        anna.personId,
        'Abholbereit: „Regalstück“',
        'Liebe Anna,\n…',
        'sent',
        1,
        at,
        null,
        at,
        at,
        at,
      );
      insert.run(
        'overdue-1',
        2,
        at,
        anna.personId,
        'Erinnerung',
        'Text',
        'failed',
        10,
        at,
        '550 unknown <user>',
        at,
        null,
        at,
      );
      insert.run(
        'password-reset',
        3,
        at,
        anna.personId,
        'Passwort',
        'https://x.example/?t=GEHEIM',
        'pending',
        0,
        at,
        null,
        at,
        null,
        at,
      );
    } finally {
      db.close();
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const newPage = (who: Session, width = 1280, locale = 'de-DE') =>
    openPage(browser, { width, locale, session: { base: server.base, cookie: who.cookie } });

  const STAFF_PAGES = [
    '/leser',
    '/leser?q=anna',
    '/leser?q=zzzz',
    '/leser?anzahl=1',
    '/abholregal',
    '/ausleihen/ueberfaellig',
    '/ausleihen/ueberfaellig?tage=30',
    '/benachrichtigungen',
    '/benachrichtigungen?status=fehlgeschlagen',
    '/personen/anna-berger/benachrichtigungen',
    '/theke',
  ];

  test('staff find the lists in the header and on the desk; a member does not', async () => {
    for (const [who, sees] of [
      [staff, true],
      [anna, false],
    ] as const) {
      const { context, page } = await newPage(who);
      try {
        await page.goto(`${server.base}/`);
        const nav = page.getByRole('navigation', { name: 'Werkzeuge für das Personal' });
        for (const name of ['Leser', 'Abholregal', 'Überfällige', 'Benachrichtigungen'])
          assert.equal(await nav.getByRole('link', { name, exact: true }).count(), sees ? 1 : 0, name);
      } finally {
        await context.close();
      }
    }
    const { context, page } = await newPage(staff);
    try {
      await page.goto(`${server.base}/theke`);
      await page
        .getByRole('navigation', { name: 'Listen der Theke' })
        .getByRole('link', { name: 'Abholregal' })
        .click();
      await page.waitForURL(`${server.base}/abholregal`);
      assert.equal(await page.getByText('Vergessenes Regalstück').count(), 1);
      assert.equal(await page.locator('tr.overdue').getByText('abgelaufen').count(), 1);
    } finally {
      await context.close();
    }
  });

  test('Anna finds her notices from "Mein Konto"', async () => {
    const { context, page } = await newPage(anna);
    try {
      await page.goto(`${server.base}/`);
      await page.getByRole('link', { name: 'Mein Konto' }).click();
      await page.getByRole('link', { name: 'Meine Benachrichtigungen' }).click();
      await page.getByRole('heading', { name: 'Benachrichtigungen an Anna Berger' }).waitFor();
      assert.equal(await page.getByText('Abholbereit: „Regalstück“').count(), 1);
      assert.equal(await page.getByText('550 unknown').count(), 0, 'the SMTP error is for staff');
    } finally {
      await context.close();
    }
  });

  test(
    'the XML of every list is valid against its schema; paging links keep the suffix',
    skipUnless('xmllint'),
    async () => {
      const lists: [Session, string, SchemaName][] = [
        [staff, '/leser.xml?q=e', 'patrons'],
        [staff, '/abholregal.xml', 'hold-shelf'],
        [staff, '/ausleihen/ueberfaellig.xml', 'overdue-loans'],
        [staff, '/benachrichtigungen.xml', 'notices'],
        [anna, '/personen/anna-berger/benachrichtigungen.xml', 'notices'],
      ];
      for (const [who, path, schema] of lists) {
        const response = await fetch(server.base + path, { headers: who.read });
        assert.equal(response.status, 200, path);
        assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
        const result = await validateXml(await response.text(), schemaFile(schema, 'xsd'));
        assert.ok(result.ok, `${path}: ${result.errors}`);
      }
      const page = (await (
        await fetch(`${server.base}/ausleihen/ueberfaellig.json?anzahl=1`, { headers: staff.read })
      ).json()) as { naechste?: string; ausleihe: unknown[] };
      assert.equal(page.ausleihe.length, 1);
      assert.match(page.naechste ?? '', /\/ausleihen\/ueberfaellig\.json\?nach=[\w-]+&anzahl=1$/);
    },
  );

  for (const width of [1280, 390]) {
    test(`axe: no serious or critical violation on the lists at ${width} px`, async () => {
      const pages: [Session, string][] = [
        ...STAFF_PAGES.map((p): [Session, string] => [staff, p]),
        [anna, '/personen/anna-berger/benachrichtigungen'],
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

  test(
    'the Nu HTML checker finds no error on the lists, in German and English',
    skipUnless('java'),
    async () => {
      const pages: { name: string; html: string }[] = [];
      for (const [who, path, lang] of [
        ...STAFF_PAGES.map((p) => [staff, p, 'de'] as const),
        ...STAFF_PAGES.map((p) => [staff, p, 'en'] as const),
        [anna, '/personen/anna-berger/benachrichtigungen', 'de'] as const,
      ]) {
        const response = await fetch(server.base + path, {
          headers: { ...who.read, accept: 'text/html', 'accept-language': lang },
        });
        assert.equal(response.status, 200, path);
        const html = await response.text();
        assert.doesNotMatch(html, /GEHEIM/, 'a password reset link is never shown');
        pages.push({ name: `${lang} ${path}`, html });
      }
      assert.equal(await htmlReport(pages), '');
    },
  );

  test('the overdue loans print as a list: no header, navigation, filter or paging', async () => {
    const { context, page } = await newPage(staff);
    try {
      await page.goto(`${server.base}/ausleihen/ueberfaellig?anzahl=1`);
      assert.ok(await page.locator('header.site').isVisible());
      assert.ok(await page.locator('nav.paging').isVisible(), 'more than one overdue loan: paging');
      await page.emulateMedia({ media: 'print' });
      for (const hidden of ['header.site', 'footer.site', 'form.list-filter', 'nav.paging', '.screen-only'])
        assert.equal(await page.locator(hidden).isVisible(), false, hidden);
      assert.ok(await page.locator('table.loans').isVisible());
      assert.ok(await page.getByRole('heading', { name: 'Überfällige Ausleihen' }).isVisible());
    } finally {
      await context.close();
    }
  });
});
