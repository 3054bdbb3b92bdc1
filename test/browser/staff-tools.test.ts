// Issue 11, item 12 in a real browser (Debian Chromium via playwright-core) against the real
// server with the demo catalogue:
//   - axe-core finds no violation on the catalogue's pages — anonymous, a member's and staff's,
//     error pages and the delete confirmation included — at 1280 and at 390 px;
//   - staff find their tools in the header (due loans, error log, /server-status) and a
//     person's loans from the person's page; nobody else sees those links;
//   - deleting asks first: a link to a confirmation page (no script, no inline handler) whose
//     form deletes, and whose "Abbrechen" deletes nothing;
//   - German pages speak German only and say so (Content-Language: de); problem bodies are
//     English and say that;
//   - at 390 px nothing is wider than the window and every "Zurückgeben" button is in view.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';
import {
  locationPath,
  logIn,
  request,
  startShelfmark,
  type Session,
  type Shelfmark,
} from '../access/server.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [1280, 390] as const;
type Who = 'anonymous' | 'anna' | 'personal';

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** axe-core's violations on the page (every rule axe runs by default, best practices included). */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // evaluate() goes through DevTools, so a Content-Security-Policy does not stop the script.
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))',
  )) as AxeViolation[];
  return result;
}

function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    .join('\n');
}

describe('staff tools, confirmation, language and accessibility in Chromium', skipUnless('chromium'), () => {
  let server: Shelfmark;
  let browser: Browser;
  const sessions: Partial<Record<Who, Session>> = {};
  let annaId: number;
  let annaSlug: string;

  before(async () => {
    server = await startShelfmark('shelfmark-staff-tools-');
    sessions.anna = await logIn(server.base, 'anna');
    sessions.personal = await logIn(server.base, 'personal');
    annaId = sessions.anna.personId;
    const loans = await request(server.base, sessions.anna, 'GET', `/ausleihen/${annaId}`);
    annaSlug = ((await loans.json()) as { person: { url: string } }).person.url.replace(
      /^.*\/personen\//,
      '',
    );
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  function newPage(who: Who, width: number) {
    const session = who === 'anonymous' ? undefined : sessions[who];
    return openPage(browser, {
      width,
      ...(session && { session: { base: server.base, cookie: session.cookie } }),
    });
  }

  const newWork = async (titel: string): Promise<string> => {
    const response = await request(server.base, sessions.personal!, 'POST', '/werke', {
      titel,
      exemplare: 1,
    });
    assert.equal(response.status, 201);
    return locationPath(response).replace('/werke/', '');
  };

  // [who, path, status]: every kind of page, and what each viewer sees differently.
  const pages = (): [Who, string, number][] => [
    ['anonymous', '/', 200],
    ['anonymous', '/personen', 200],
    ['anonymous', '/personen/goethe', 200],
    ['anonymous', '/werke', 200],
    ['anonymous', '/werke?q=faust', 200],
    // Facets with values chosen, two of one facet (ADR 0094, 0099): the chosen ones marked, each
    // with a link lifting it.
    ['anonymous', '/werke?dekade=1800&dekade=1770&verfuegbar=ja', 200],
    ['anonymous', '/werke/faust', 200],
    ['anonymous', '/sitzung', 200],
    ['anonymous', '/ausleihen', 403],
    ['anonymous', '/gibt-es-nicht', 404],
    ['anna', `/ausleihen/${annaId}`, 200],
    ['anna', '/sitzung', 200],
    ['anna', '/protokoll/fehler', 403],
    ['personal', '/', 200],
    ['personal', '/personen', 200],
    ['personal', `/personen/${annaSlug}`, 200],
    ['personal', `/personen/${annaSlug}?loeschen`, 200],
    ['personal', '/werke', 200],
    ['personal', '/werke/faust', 200],
    ['personal', '/werke/faust?loeschen', 200],
    ['personal', '/ausleihen', 200],
    ['personal', `/ausleihen/${annaId}`, 200],
    ['personal', '/protokoll/fehler', 200],
  ];

  for (const width of WIDTHS) {
    test(`axe finds no violation on any page at ${width} px; German, and nothing wider than the window`, async () => {
      const problems: string[] = [];
      for (const who of ['anonymous', 'anna', 'personal'] as const) {
        const { context, page } = await newPage(who, width);
        try {
          for (const [viewer, path, status] of pages()) {
            if (viewer !== who) continue;
            const what = `${path} as ${who} at ${width} px`;
            const response = await page.goto(server.base + path, { waitUntil: 'load' });
            assert.equal(response?.status(), status, what);
            assert.equal(response?.headers()['content-language'], 'de', `${what}: Content-Language`);
            assert.equal(await page.getAttribute('html', 'lang'), 'de', what);
            const violations = await axeViolations(page);
            if (violations.length > 0) problems.push(`${what}:\n${describeViolations(violations)}`);
            const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
            if (scrollWidth > width) problems.push(`${what}: ${scrollWidth} px wide`);
          }
        } finally {
          await context.close();
        }
      }
      assert.deepEqual(problems, [], problems.join('\n\n'));
    });
  }

  test('at 390 px every "Zurückgeben" button of a loan list is whole and on top', async () => {
    // Only staff get them: returns are checked in at the desk (ADR 0061).
    for (const who of ['personal'] as const) {
      const { context, page } = await newPage(who, 390);
      try {
        await page.goto(`${server.base}/ausleihen/${annaId}`);
        const buttons = page.getByRole('button', { name: /zurückgeben$/ });
        const count = await buttons.count();
        assert.ok(count >= 2, `anna has demo loans (${count} buttons)`);
        for (let i = 0; i < count; i++) {
          const button = buttons.nth(i);
          await button.scrollIntoViewIfNeeded();
          const box = await button.boundingBox();
          assert.ok(box, 'the button has a box');
          assert.ok(
            box.x >= 0 && box.x + box.width <= 390,
            `button ${i} within the window: ${JSON.stringify(box)}`,
          );
          // Nothing (an overflow clip, another cell) covers its middle or its right end.
          for (const x of [box.x + box.width / 2, box.x + box.width - 2]) {
            const onTop: unknown = await page.evaluate(
              `(() => { const e = document.elementFromPoint(${x}, ${box.y + box.height / 2}); return e && e.closest('button') ? e.closest('button').textContent.trim() : String(e && e.tagName); })()`,
            );
            assert.equal(onTop, 'Zurückgeben', `${who}: button ${i} at x=${x}`);
          }
        }
      } finally {
        await context.close();
      }
    }
  });

  test("staff's header links the due loans, the check-in, the error log, /server-status and the rules; a person's page their loans", async () => {
    const { context, page } = await newPage('personal', 1280);
    try {
      await page.goto(`${server.base}/personen/${annaSlug}`);
      const tools = page.getByRole('navigation', { name: 'Werkzeuge für das Personal' });
      const links = await tools
        .getByRole('link')
        .evaluateAll((as) => as.map((a) => `${a.textContent} ${a.getAttribute('href')}`));
      assert.deepEqual(links, [
        'Fällige Ausleihen /ausleihen',
        'Theke /theke',
        'Rückgabe /rueckgabe',
        'Leser /leser',
        'Abholregal /abholregal',
        'Überfällige /ausleihen/ueberfaellig',
        'Benachrichtigungen /benachrichtigungen',
        'Fehlerprotokoll /protokoll/fehler',
        'Serverstatus /server-status',
        'Ausleihregeln /ausleihregeln/medientypen',
      ]);
      await page.getByRole('link', { name: 'Ausleihen von Anna Berger' }).click();
      await page.waitForURL(`${server.base}/ausleihen/${annaId}`);
      await page.getByRole('heading', { name: 'Ausleihen von Anna Berger' }).waitFor();

      await tools.getByRole('link', { name: 'Fällige Ausleihen' }).click();
      await page.getByRole('heading', { name: 'Fällige Ausleihen' }).waitFor();
      assert.equal(
        await tools.getByRole('link', { name: 'Fällige Ausleihen' }).getAttribute('aria-current'),
        'page',
      );
      await tools.getByRole('link', { name: 'Rückgabe' }).click();
      await page.getByRole('heading', { name: 'Rückgabe' }).waitFor();
      assert.equal(await tools.getByRole('link', { name: 'Rückgabe' }).getAttribute('aria-current'), 'page');
      await tools.getByRole('link', { name: 'Fehlerprotokoll' }).click();
      await page.getByRole('heading', { name: 'Fehlerprotokoll' }).waitFor();
    } finally {
      await context.close();
    }
    for (const who of ['anonymous', 'anna'] as const) {
      const other = await newPage(who, 1280);
      try {
        await other.page.goto(`${server.base}/personen/${annaSlug}`);
        assert.equal(
          await other.page.getByRole('navigation', { name: 'Werkzeuge für das Personal' }).count(),
          0,
          who,
        );
        assert.equal(
          await other.page.getByRole('link', { name: 'Ausleihen von Anna Berger' }).count(),
          0,
          who,
        );
        assert.equal(await other.page.getByRole('link', { name: 'Dieses Werk löschen' }).count(), 0, who);
      } finally {
        await other.context.close();
      }
    }
  });

  test('deleting a work asks first: "Abbrechen" keeps it, "Endgültig löschen" deletes it', async () => {
    const slug = await newWork('Zum Löschen bestimmt');
    const { context, page } = await newPage('personal', 390);
    try {
      await page.goto(`${server.base}/werke/${slug}`);
      await page.getByRole('link', { name: 'Dieses Werk löschen' }).click();
      await page.waitForURL(`${server.base}/werke/${slug}?loeschen`);
      await page.getByRole('heading', { name: '„Zum Löschen bestimmt“ löschen?' }).waitFor();
      await page.getByText('Das lässt sich nicht rückgängig machen.').waitFor();
      // No script and no inline handler: it works without JavaScript and under a strict CSP.
      const scripted = await page.evaluate(
        '[...document.querySelectorAll("*")].filter((e) => e.tagName === "SCRIPT" || [...e.attributes].some((a) => a.name.startsWith("on"))).length',
      );
      assert.equal(scripted, 0);

      await page.getByRole('link', { name: 'Abbrechen' }).click();
      await page.waitForURL(`${server.base}/werke/${slug}`);
      assert.equal((await request(server.base, sessions.personal!, 'GET', `/werke/${slug}`)).status, 200);

      await page.getByRole('link', { name: 'Dieses Werk löschen' }).click();
      await page.getByRole('button', { name: 'Endgültig löschen' }).click();
      await page.waitForURL((url) => url.pathname !== `/werke/${slug}`);
      assert.equal((await request(server.base, sessions.personal!, 'GET', `/werke/${slug}`)).status, 410);
    } finally {
      await context.close();
    }
    // ?loeschen is only a page for staff: others get the work itself; JSON is the work.
    const json = await request(server.base, sessions.anna!, 'GET', '/werke/faust?loeschen');
    assert.equal(((await json.json()) as { titel: string }).titel, 'Faust');
    const anonymous = await fetch(`${server.base}/werke/faust?loeschen`);
    assert.doesNotMatch(await anonymous.text(), /Endgültig löschen/);
  });

  test('the German 403 pages are German only; problem bodies are English and say so', async () => {
    const { context, page } = await newPage('anonymous', 1280);
    try {
      for (const [path, sentence] of [
        ['/ausleihen', 'Die Liste der fälligen Ausleihen ist nur für das Personal.'],
        [`/ausleihen/${annaId}`, 'Ausleihen sehen nur die Person, die ausgeliehen hat, und das Personal.'],
        ['/protokoll/fehler', 'Das Fehlerprotokoll ist nur für das Personal.'],
      ] as const) {
        const response = await page.goto(server.base + path);
        assert.equal(response?.status(), 403, path);
        assert.equal(response?.headers()['content-language'], 'de', path);
        const text = await page.locator('main').innerText();
        assert.ok(text.includes(sentence), `${path}: ${text}`);
        assert.doesNotMatch(text, /\b(the|is|only|please|staff|log in|and)\b/i, `${path}: no English`);
      }
    } finally {
      await context.close();
    }
    const problem = await fetch(`${server.base}/ausleihen`, { headers: { accept: 'application/json' } });
    assert.equal(problem.status, 403);
    assert.equal(problem.headers.get('content-language'), 'en');
    assert.equal(
      ((await problem.json()) as { detail: string }).detail,
      'The list of loans due is for staff only.',
    );
    const english = await fetch(`${server.base}/ausleihen`, { headers: { 'accept-language': 'en' } });
    assert.equal(english.headers.get('content-language'), 'en');
    assert.match(await english.text(), /The list of loans due is for staff only\./);
  });
});
