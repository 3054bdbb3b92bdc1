// Issue 4 in a real browser (Debian Chromium via playwright-core) against the real server:
//   - anna logs in with the form, borrows from a work's page and from her loan list's form,
//     sees the list without return buttons (staff check returns in), logs out;
//   - staff logs in, edits a work through its form (POST + _method=PUT), deletes a person
//     through its confirmation page's form (POST + _method=DELETE), logs out;
//   - a page on ANOTHER origin auto-submits a borrow form and a delete form to Shelfmark while
//     staff's session cookie is in the browser (127.0.0.1 on another port is the same site, so
//     the SameSite=Lax cookie IS sent): both are refused with 403 and nothing changes.
// Screenshots of the logged-in pages go to a temporary folder (kept and printed when
// SHELFMARK_KEEP_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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

describe('lending and editing in Chromium; cross-origin forms refused', skipUnless('chromium'), () => {
  let server: Shelfmark;
  let browser: Browser;
  let staffApi: Session;
  let annaApi: Session;
  let shots: string;
  const keepShots = process.env.SHELFMARK_KEEP_SCREENSHOTS === '1';

  const api = (method: string, path: string, body?: unknown) =>
    request(server.base, staffApi, method, path, body);
  const apiJson = async <T>(path: string): Promise<T> => {
    const response = await api('GET', path);
    assert.equal(response.status, 200, path);
    return (await response.json()) as T;
  };
  const newWork = async (titel: string, exemplare: number): Promise<string> => {
    const response = await api('POST', '/werke', { titel, exemplare, jahr: 1900 });
    assert.equal(response.status, 201, titel);
    return locationPath(response).replace('/werke/', '');
  };
  const newPerson = async (vorname: string, nachname: string): Promise<string> => {
    const response = await api('POST', '/personen', { vorname, nachname });
    assert.equal(response.status, 201, nachname);
    return locationPath(response).replace('/personen/', '');
  };
  const loansOf = async (personId: number) =>
    (await apiJson<{ ausleihe: { url: string; werk: { titel: string } }[] }>(`/ausleihen/${personId}`))
      .ausleihe;

  before(async () => {
    server = await startShelfmark('shelfmark-browser-');
    staffApi = await logIn(server.base, 'personal');
    annaApi = await logIn(server.base, 'anna');
    browser = await launchBrowser();
    shots = mkdtempSync(join(tmpdir(), 'shelfmark-screens-'));
  });
  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (shots && !keepShots) rmSync(shots, { recursive: true, force: true });
  });

  const newPage = () => openPage(browser, { width: 1100 });

  async function logOut(page: Page, username: string): Promise<void> {
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.waitForURL(`${server.base}/`);
    await page.getByRole('link', { name: 'Anmelden' }).waitFor();
    assert.equal(await page.getByText(`angemeldet als ${username}`).count(), 0);
    const cookies = await page.context().cookies(server.base);
    assert.deepEqual(
      cookies.filter((c) => c.name === 'shelfmark_session'),
      [],
      'the cookie is gone',
    );
  }

  async function shoot(page: Page, name: string): Promise<void> {
    const file = join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    assert.ok(statSync(file).size > 1000, `${file} is a picture`);
    if (keepShots) console.log(`screenshot: ${file}`);
  }

  test('anna logs in, borrows from a work page and from her list, sees the list, staff checks in, logs out', async () => {
    const fromPage = await newWork('Browserbuch Eins', 1);
    const fromList = await newWork('Browserbuch Zwei', 1);
    const { context, page } = await newPage();
    try {
      await logInWithForm(page, server.base, 'anna');

      await page.goto(`${server.base}/werke/${fromPage}`);
      await page.getByRole('button', { name: 'Ausleihen' }).click();
      await page.waitForURL(`${server.base}/ausleihen/${annaApi.personId}`);
      await page.getByRole('heading', { name: 'Ausleihen von Anna Berger' }).waitFor();

      await page.getByLabel(/^Werk \(Adresse oder Kurzname/).fill(fromList);
      await page.getByRole('button', { name: 'Ausleihen' }).click();
      await page.waitForURL(`${server.base}/ausleihen/${annaApi.personId}`);
      const rows = page.locator('table.loans tbody tr');
      await rows.filter({ hasText: 'Browserbuch Zwei' }).waitFor();
      assert.equal(await rows.filter({ hasText: 'Browserbuch Eins' }).count(), 1);
      assert.equal(await rows.filter({ hasText: 'Faust' }).count(), 1, 'the demo loans are listed too');
      await shoot(page, 'anna-loans');

      const titles = (await loansOf(annaApi.personId)).map((l) => l.werk.titel);
      assert.ok(
        titles.includes('Browserbuch Eins') && titles.includes('Browserbuch Zwei'),
        titles.join(', '),
      );
      assert.equal((await apiJson<{ verfuegbar: number }>(`/werke/${fromPage}`)).verfuegbar, 0);

      // Returns are checked in by staff (ADR 0061): anna's page offers no return button and
      // says so; staff checks the copy in (here over the API), and her list no longer shows it.
      assert.equal(await page.getByRole('button', { name: /zurückgeben$/ }).count(), 0);
      await page.getByText('Rückgaben nimmt das Personal an der Theke entgegen.').waitFor();
      const loanUrl = (await loansOf(annaApi.personId)).find((l) => l.werk.titel === 'Browserbuch Eins')?.url;
      assert.ok(loanUrl);
      assert.equal((await api('DELETE', new URL(loanUrl).pathname)).status, 204);
      await page.reload();
      await rows.filter({ hasText: 'Browserbuch Zwei' }).waitFor();
      assert.equal(await rows.filter({ hasText: 'Browserbuch Eins' }).count(), 0, 'returned');
      assert.equal((await apiJson<{ verfuegbar: number }>(`/werke/${fromPage}`)).verfuegbar, 1);
      const after = (await loansOf(annaApi.personId)).map((l) => l.werk.titel);
      assert.ok(!after.includes('Browserbuch Eins') && after.includes('Browserbuch Zwei'), after.join(', '));

      await logOut(page, 'anna');
      const denied = await page.goto(`${server.base}/ausleihen/${annaApi.personId}`);
      assert.equal(denied?.status(), 403, 'logged out, the list is closed again');
      await page.getByRole('button', { name: 'Anmelden' }).waitFor(); // the 403 page offers the form
    } finally {
      await context.close();
    }
  });

  test('staff logs in, edits a work through its form (PUT), deletes a person (DELETE), logs out', async () => {
    const work = await newWork('Zu bearbeiten', 2);
    const person = await newPerson('Lösch', 'Mich Browser');
    const { context, page } = await newPage();
    try {
      await logInWithForm(page, server.base, 'personal');

      await page.goto(`${server.base}/werke/${work}`);
      await shoot(page, 'staff-work-edit');
      await page.getByRole('textbox', { name: 'Exemplare', exact: true }).fill('6');
      await page.getByLabel('Jahr').fill('1921');
      await page.getByRole('button', { name: 'Speichern' }).click();
      await page.waitForURL(`${server.base}/werke/${work}`);
      await page.locator('dl.facts').getByText('1921').waitFor();
      const edited = await apiJson<{ titel: string; jahr: number; exemplare: number }>(`/werke/${work}`);
      assert.deepEqual(
        { titel: edited.titel, jahr: edited.jahr, exemplare: edited.exemplare },
        { titel: 'Zu bearbeiten', jahr: 1921, exemplare: 6 },
      );

      await page.goto(`${server.base}/personen/${person}`);
      await page.getByRole('heading', { name: 'Lösch Mich Browser' }).waitFor();
      // Deleting asks first: the link leads to a confirmation page with the DELETE form.
      await page.getByRole('link', { name: 'Diese Person löschen' }).click();
      await page.waitForURL(`${server.base}/personen/${person}?loeschen`);
      await page.getByRole('heading', { name: '„Lösch Mich Browser“ löschen?' }).waitFor();
      await page.getByRole('button', { name: 'Endgültig löschen' }).click();
      await page.waitForURL((url) => url.pathname !== `/personen/${person}`);
      assert.equal((await api('GET', `/personen/${person}`)).status, 410, 'the person is gone');

      await logOut(page, 'personal');
    } finally {
      await context.close();
    }
  });

  test("a page on another origin submits a borrow and a delete form with staff's cookie: 403, nothing changes", async () => {
    const work = await newWork('Begehrt', 1);
    const person = await newPerson('Bleibt', 'Bestehen');
    const staffLoansBefore = (await loansOf(staffApi.personId)).length;
    // One page per form, each submitting itself as a top-level navigation: framed, Shelfmark's
    // answer would be blocked by its own frame-ancestors 'none' before the test could read it.
    const attackerPages: Record<string, string> = {
      '/gewinnspiel': `<!doctype html><html lang="en"><title>Win a prize</title>
<form id="f" method="post" action="${server.base}/ausleihen/${staffApi.personId}">
  <input name="werk" value="${work}"></form>
<script>document.getElementById('f').submit();</script>`,
      '/noch-ein-gewinn': `<!doctype html><html lang="en"><title>Win again</title>
<form id="f" method="post" action="${server.base}/personen/${person}">
  <input name="_method" value="DELETE"></form>
<script>document.getElementById('f').submit();</script>`,
    };
    const attacker: Server = createServer((req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(attackerPages[req.url ?? ''] ?? ''),
    );
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const attackerBase = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    assert.notEqual(new URL(attackerBase).origin, new URL(server.base).origin);

    const { context, page } = await newPage();
    try {
      await logInWithForm(page, server.base, 'personal');
      const posted = (path: string) =>
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path);
      for (const [attack, path] of [
        ['/gewinnspiel', `/ausleihen/${staffApi.personId}`],
        ['/noch-ein-gewinn', `/personen/${person}`],
      ] as const) {
        const answer = posted(path);
        await page.goto(`${attackerBase}${attack}`);
        const response = await answer;
        const what = `cross-origin POST ${path}`;
        const sent = await response.request().allHeaders();
        assert.match(sent.cookie ?? '', /shelfmark_session=/, `${what} carried the victim's cookie`);
        assert.equal(response.status(), 403, what);
        // Read before the next navigation: the body of a page navigated away from is gone.
        assert.match(
          await response.text(),
          /Die Anfrage kam von einer anderen Website und wurde zu Ihrem Schutz abgelehnt\./,
          `${what}: refused by the CSRF check`,
        );
      }
    } finally {
      await context.close();
      await new Promise((resolve) => attacker.close(resolve));
    }

    assert.equal((await api('GET', `/personen/${person}`)).status, 200, 'the person still exists');
    assert.equal((await loansOf(staffApi.personId)).length, staffLoansBefore, 'no loan was made');
    assert.equal((await apiJson<{ verfuegbar: number }>(`/werke/${work}`)).verfuegbar, 1);
  });
});
