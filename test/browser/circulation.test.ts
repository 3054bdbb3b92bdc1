// Issue 12's acceptance in a real browser (Debian Chromium via playwright-core) against the real
// server on SQLite, through the pages' own forms and buttons:
//   1. anna reserves a work whose only copy ben has ("Vormerken" on the work's page);
//   2. staff checks that copy in at the desk (`/rueckgabe`, the copy's barcode);
//   3. anna's holds page shows the copy kept for her; she borrows it from her loan list's form;
//   4. she renews it once ("verlängern"), and the due date moves;
//   5. goethe reserves the work too, and anna's second renewal is refused (409): someone else
//      holds the work.
// Only the set-up (a new work, ben's loan) goes around the pages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logInWithForm, openPage } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';
import {
  locationPath,
  logIn,
  request,
  startShelfmark,
  type Session,
  type Shelfmark,
} from '../access/server.ts';

const TITLE = 'Kreislauf der Bücher';

describe(
  'circulation in Chromium: hold, check-in, borrow, renew, renewal refused',
  skipUnless('chromium'),
  () => {
    let server: Shelfmark;
    let browser: Browser;
    let staffApi: Session;

    before(async () => {
      server = await startShelfmark('shelfmark-circulation-');
      staffApi = await logIn(server.base, 'personal');
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await server?.dispose();
    });

    async function loggedIn(username: string): Promise<{ context: BrowserContext; page: Page }> {
      const opened = await openPage(browser, { width: 1100 });
      await logInWithForm(opened.page, server.base, username);
      return opened;
    }

    test('a member reserves a work that is out, staff check it in, she borrows it, renews once, then is refused', async () => {
      // Set-up: a work with one copy, lent to ben.
      const created = await request(server.base, staffApi, 'POST', '/werke', { titel: TITLE, exemplare: 1 });
      assert.equal(created.status, 201);
      const slug = locationPath(created).replace('/werke/', '');
      const ben = await logIn(server.base, 'ben');
      const lent = await request(server.base, staffApi, 'POST', `/ausleihen/${ben.personId}`, { werk: slug });
      assert.equal(lent.status, 201, await lent.text());
      const anna = await logIn(server.base, 'anna');

      const member = await loggedIn('anna');
      const desk = await loggedIn('personal');
      const other = await loggedIn('goethe');
      try {
        const { page } = member;
        // 1. The work is out: its page offers anna a hold instead of a loan.
        await page.goto(`${server.base}/werke/${slug}`);
        assert.equal(await page.getByRole('button', { name: 'Ausleihen' }).count(), 0, 'no copy to borrow');
        await page.getByRole('button', { name: 'Vormerken' }).click();
        await page.waitForURL(/\/vormerkungen$/);
        const holdsUrl = page.url();
        const holdRow = page.locator('table.loans tbody tr', { hasText: TITLE });
        await holdRow.getByText(/Wartend/).waitFor();

        // 2. Staff checks the copy in at the desk, by its barcode.
        // The barcode printed on the copy, as its page shows it to staff (what the scanner reads).
        await desk.page.goto(`${server.base}/werke/${slug}/exemplare/1`);
        const barcode = (await desk.page.locator('dd.barcode').textContent())?.trim() ?? '';
        assert.ok(barcode.length > 0, 'the copy page shows its barcode');
        await desk.page.goto(`${server.base}/ausleihen`);
        await desk.page
          .getByRole('navigation', { name: 'Werkzeuge für das Personal' })
          .getByRole('link', { name: 'Rückgabe' })
          .click();
        await desk.page.getByRole('heading', { name: 'Rückgabe' }).waitFor();
        await desk.page.getByLabel('Barcode').fill(barcode);
        await desk.page.getByRole('button', { name: 'Zurücknehmen' }).click();
        await desk.page.waitForURL(/\/rueckgabe\?barcode=/);
        await desk.page.getByText(`„${TITLE}“ ist zurückgenommen.`).waitFor();
        await desk.page.getByText('Ben').first().waitFor();

        // 3. Anna's hold: the copy is kept for her. She borrows it from her loan list.
        await page.goto(holdsUrl);
        await holdRow.getByText(/Liegt bereit bis/).waitFor();
        await page.goto(`${server.base}/ausleihen/${anna.personId}`);
        await page.getByLabel(/^Werk \(Adresse oder Kurzname/).fill(slug);
        await page.getByRole('button', { name: 'Ausleihen', exact: true }).click();
        await page.waitForURL(`${server.base}/ausleihen/${anna.personId}`);
        const loanRow = page.locator('table.loans tbody tr', { hasText: TITLE });
        await loanRow.waitFor();
        const dueBefore = await loanRow.locator('td[data-label="Fällig am"] time').getAttribute('datetime');
        // The hold was fulfilled by the loan: it left her list.
        await page.goto(holdsUrl);
        assert.equal(await holdRow.count(), 0, 'the hold is fulfilled');

        // 4. She renews it once: the due date moves on.
        await page.goto(`${server.base}/ausleihen/${anna.personId}`);
        await page.getByRole('button', { name: `„${TITLE}“ verlängern` }).click();
        await page.waitForURL(`${server.base}/ausleihen/${anna.personId}`);
        const dueAfter = await loanRow.locator('td[data-label="Fällig am"] time').getAttribute('datetime');
        assert.ok(dueBefore && dueAfter && dueAfter > dueBefore, `due ${dueBefore} → ${dueAfter}`);

        // 5. goethe reserves the work (it is out again), so a second renewal is refused.
        await other.page.goto(`${server.base}/werke/${slug}`);
        await other.page.getByRole('button', { name: 'Vormerken' }).click();
        await other.page.waitForURL(/\/vormerkungen$/);
        await other.page
          .locator('table.loans tbody tr', { hasText: TITLE })
          .getByText(/Wartend/)
          .waitFor();

        const refusal = page.waitForResponse((r) => r.url().endsWith('/verlaengerung'));
        await page.getByRole('button', { name: `„${TITLE}“ verlängern` }).click();
        assert.equal((await refusal).status(), 409);
        await page.getByText('Eine andere Person hat dieses Werk vorgemerkt').waitFor();
        await page.goto(`${server.base}/ausleihen/${anna.personId}`);
        const dueNow = await loanRow.locator('td[data-label="Fällig am"] time').getAttribute('datetime');
        assert.equal(dueNow, dueAfter, 'the refused renewal changed nothing');
      } finally {
        for (const { context } of [member, desk, other]) await context.close();
      }
    });
  },
);
