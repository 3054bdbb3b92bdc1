// Issue 21: the API's traffic through Prism's validating proxy (`prism proxy --errors`) against
// the real server with the demo catalogue, for every operation /openapi.json describes: every
// request must be valid for its operation, every answer (status, headers, body) must be one the
// operation lists. Prism starts once for the file (its start-up takes seconds).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';
import { operationOf, operations, type Description } from './description.ts';
import { startPrism, type Prism, type PrismAnswer } from './prism.ts';
import { startTestSmtp, type TestSmtp } from '../kit/mail/smtp.ts';

const basic = (user: string, password = user) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const JSON_TYPE = 'application/json';
const STAFF = { Authorization: STAFF_AUTHORIZATION, Accept: JSON_TYPE };

describe('the API through Prism’s validating proxy', () => {
  let c: Catalogue;
  let prism: Prism;
  let doc: Description;
  let dir: string;
  /** Receives the password reset's mail (ADR 0093). */
  let smtp: TestSmtp;
  /** operationId → statuses seen. */
  const seen = new Map<string, Set<number>>();

  /** One request through the proxy: the status expected, no violation of either side. */
  async function call(
    method: string,
    url: string,
    expected: number,
    init: { headers?: Record<string, string>; body?: unknown; type?: string } = {},
  ): Promise<PrismAnswer> {
    const headers = { ...init.headers };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['Content-Type'] = init.type ?? JSON_TYPE;
    }
    const answer = await prism.send(method, url, { headers, body });
    const what = `${method} ${url}`;
    assert.deepEqual(answer.response_, [], `${what}: the answer violates the description`);
    assert.deepEqual(answer.request, [], `${what}: the request violates the description`);
    assert.equal(answer.status, expected, `${what}: ${await answer.response.clone().text()}`);
    const operation = operationOf(doc, method, url);
    assert.ok(operation, `${what} is no documented operation`);
    const statuses = seen.get(operation.operationId) ?? new Set();
    seen.set(operation.operationId, statuses.add(answer.status));
    return answer;
  }
  /**
   * A request Prism would refuse itself (it breaks the description on purpose), sent to the
   * server straight: the status it answers must be one the operation lists.
   */
  async function direct(
    method: string,
    url: string,
    expected: number,
    init: { headers?: Record<string, string>; body?: unknown; type?: string } = {},
  ): Promise<Response> {
    const headers = { ...init.headers };
    const body =
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body);
    if (body !== undefined) headers['Content-Type'] = init.type ?? JSON_TYPE;
    const response = await c.send(method, url, { headers, body });
    assert.equal(response.status, expected, `${method} ${url}: ${await response.clone().text()}`);
    const operation = operationOf(doc, method, url);
    assert.ok(operation, `${method} ${url} is no documented operation`);
    assert.ok(
      String(response.status) in operation.responses,
      `${operation.operationId} does not list ${response.status}`,
    );
    return response;
  }
  const json = async (answer: PrismAnswer) => (await answer.response.json()) as Record<string, unknown>;
  const pathOf = (url: string) => new URL(url, c.origin).pathname;
  const linkPath = (link: unknown) => pathOf((link as { url: string }).url);
  const etagOf = (answer: PrismAnswer) => answer.response.headers.get('etag') ?? '';

  before(async () => {
    smtp = await startTestSmtp();
    c = await startCatalogue({
      env: {
        SHELFMARK_SMTP_HOST: '127.0.0.1',
        SHELFMARK_SMTP_PORT: String(smtp.port),
        SHELFMARK_SMTP_TLS: 'off',
        SHELFMARK_NOTICE_INTERVAL: '0',
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-prism-'));
    const served = await (await c.get('/openapi.json')).text();
    doc = JSON.parse(served) as Description;
    writeFileSync(path.join(dir, 'openapi.json'), served);
    prism = await startPrism(path.join(dir, 'openapi.json'), c.origin);
  });
  after(async () => {
    await prism?.stop();
    await c?.stop();
    await smtp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('reads in the three formats and the extra ones, conditional GET, and the refusals of reads', async () => {
    for (const accept of [JSON_TYPE, 'application/xml', 'text/html'])
      await call('GET', '/', 200, { headers: { Accept: accept } });
    await call('GET', '/personen?anzahl=2', 200, { headers: { Accept: JSON_TYPE } });
    // The persons list's decades (ADR 0102): one, several, beside a search; a malformed one.
    await call('GET', '/personen?dekade=1800&dekade=1900&anzahl=2', 200, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/personen?q=goethe&dekade=1800', 200, { headers: { Accept: JSON_TYPE } });
    await direct('GET', '/personen?dekade=1805', 400, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/personen/goethe', 200, { headers: { Accept: 'application/xml' } });
    await call('GET', '/personen/goethe/lebensdaten', 200, { headers: { Accept: JSON_TYPE } });
    const faust = await call('GET', '/werke/faust?format=json', 200);
    await call('GET', '/werke/faust', 304, {
      headers: { Accept: JSON_TYPE, 'If-None-Match': etagOf(faust) },
    });
    await call('GET', '/werke?q=faust', 200, { headers: { Accept: JSON_TYPE } });
    // Facets (ADR 0094): filters combined with the search, and the list filtered alone.
    await call('GET', '/werke?q=faust&autor=goethe&dekade=1800&verfuegbar=ja&medientyp=buch', 200, {
      headers: { Accept: JSON_TYPE },
    });
    await call('GET', '/werke?dekade=1900&anzahl=5', 200, { headers: { Accept: JSON_TYPE } });
    // Several values of a facet (ADR 0099): the parameter repeats (form style, exploded).
    await call('GET', '/werke?dekade=1800&dekade=1900&verfuegbar=ja&verfuegbar=nein&anzahl=5', 200, {
      headers: { Accept: JSON_TYPE },
    });
    await call('GET', '/werke?q=goethe&autor=goethe&autor=schiller&medientyp=buch&medientyp=dvd', 200, {
      headers: { Accept: JSON_TYPE },
    });
    await direct('GET', '/werke?dekade=1800&dekade=1805', 400, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/werke/faust/exemplare', 200, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/werke/faust/exemplare/1', 200, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/werke/faust/vormerkungen', 200, { headers: STAFF });
    await call('GET', '/ausleihen', 200, { headers: STAFF });
    await call('GET', '/rueckgabe', 200, { headers: STAFF });
    await call('GET', '/personen/anna-berger/konto', 200, { headers: STAFF });
    await call('GET', '/personen/anna-berger/konto/passwort', 200, { headers: STAFF });
    await call('GET', '/personen/anna-berger/vormerkungen', 200, { headers: STAFF });
    await call('GET', '/sitzung', 200, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/protokoll/fehler?anzahl=5', 200, { headers: STAFF });
    await call('GET', '/server-status', 200, { headers: STAFF });
    // The staff lists and the notices (ADR 0092).
    await call('GET', '/leser?q=anna&anzahl=5', 200, { headers: STAFF });
    await call('GET', '/abholregal', 200, { headers: { ...STAFF, Accept: 'application/xml' } });
    await call('GET', '/ausleihen/ueberfaellig?tage=3', 200, { headers: STAFF });
    await call('GET', '/benachrichtigungen?status=gesendet', 200, { headers: STAFF });
    await call('GET', '/personen/anna-berger/benachrichtigungen', 200, {
      headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
    });
    await call('GET', '/leser', 403, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    await call('GET', '/personen/ben-krueger/benachrichtigungen', 403, {
      headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
    });
    await direct('GET', '/ausleihen/ueberfaellig?tage=0', 400, { headers: STAFF });
    await direct('GET', '/benachrichtigungen?status=verschickt', 400, { headers: STAFF });
    // The extra formats (ADR 0095, 0096): a work's citations, the feeds.
    await call('GET', '/werke/faust', 200, { headers: { Accept: 'application/x-research-info-systems' } });
    await call('GET', '/werke/faust?format=bib', 200);
    await call('GET', '/werke', 200, { headers: { Accept: 'application/atom+xml' } });
    await call('GET', '/personen/goethe?format=atom', 200);
    await call('GET', '/personen/goethe', 406, { headers: { Accept: 'application/x-bibtex' } });
    // Refusals.
    await call('GET', '/werke/gibt-es-nicht', 404, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/personen/anna-berger', 404, { headers: { Accept: JSON_TYPE } }); // a private patron
    await call('GET', '/werke', 406, { headers: { Accept: 'image/png' } });
    await call('GET', '/ausleihen', 401, { headers: { Accept: JSON_TYPE } });
    await call('GET', '/ausleihen', 403, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    await call('GET', '/server-status', 401, {
      headers: { Authorization: basic('anna', 'falsch'), Accept: JSON_TYPE },
    });
  });

  test('persons and life dates: create, replace, patch, preconditions, delete, gone', async () => {
    const created = await call('POST', '/personen', 201, {
      headers: STAFF,
      body: { vorname: 'Ida', nachname: 'Pfeiffer' },
    });
    const person = pathOf(created.response.headers.get('location')!);
    const read = await call('GET', person, 200, { headers: STAFF });
    const replaced = await call('PUT', person, 200, {
      headers: { ...STAFF, 'If-Match': etagOf(read) },
      body: { vorname: 'Ida', nachname: 'Pfeiffer-Reyer', image: null },
    });
    await call('PATCH', person, 412, {
      headers: { ...STAFF, 'If-Match': etagOf(read) },
      body: { vorname: 'Ida Laura' },
      type: 'application/merge-patch+json',
    });
    await call('PATCH', person, 200, {
      headers: { ...STAFF, 'If-Match': etagOf(replaced) },
      body: { vorname: 'Ida Laura' },
      type: 'application/merge-patch+json',
    });
    await call('PUT', `${person}/lebensdaten`, 200, {
      headers: STAFF,
      body: { geboren: 1797, gestorben: 1858 },
    });
    await call('PUT', '/personen/ida-weltreisende', 201, {
      headers: STAFF,
      body: { vorname: 'Ida', nachname: 'Reisende' },
    });
    await direct('PUT', '/personen/ida-weltreisende', 422, {
      headers: STAFF,
      body: { vorname: 'Ida', nachname: '' },
    });
    await call('DELETE', '/personen/ida-weltreisende', 204, { headers: STAFF });
    await call('GET', '/personen/ida-weltreisende', 404, { headers: { Accept: JSON_TYPE } });
    await call('DELETE', person, 403, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    await call('DELETE', person, 204, { headers: STAFF });
  });

  test('works and copies: create, replace, patch, delete; XML and form bodies', async () => {
    const created = await call('POST', '/werke', 201, {
      headers: STAFF,
      body: { titel: 'Reise um die Welt', jahr: 1850, person: ['goethe'] },
    });
    const work = pathOf(created.response.headers.get('location')!);
    const viaForm = await call('POST', '/werke', 201, {
      headers: STAFF,
      body: 'titel=Formular&jahr=1900&person=goethe',
      type: 'application/x-www-form-urlencoded',
    });
    await call('POST', '/werke', 201, {
      headers: STAFF,
      body: '<werk><titel>Als XML</titel><jahr>1901</jahr></werk>',
      type: 'application/xml',
    });
    await call('PUT', work, 200, {
      headers: STAFF,
      body: { titel: 'Eine Frauenfahrt um die Welt', jahr: 1850, exemplare: 2 },
    });
    await call('PATCH', work, 200, {
      headers: STAFF,
      body: { jahr: null },
      type: 'application/merge-patch+json',
    });
    const copy = await call('POST', `${work}/exemplare`, 201, {
      headers: STAFF,
      body: { signatur: 'Pfe 1', barcode: 'PFE-0001', standort: 'Magazin' },
    });
    const copyPath = pathOf(copy.response.headers.get('location')!);
    await call('PUT', copyPath, 200, {
      headers: STAFF,
      body: { signatur: 'Pfe 1a', barcode: 'PFE-0001', standort: 'Magazin', vermisst: false },
    });
    await call('PATCH', copyPath, 200, {
      headers: STAFF,
      body: { vermisst: true },
      type: 'application/merge-patch+json',
    });
    await call('DELETE', copyPath, 204, { headers: STAFF });
    await call('DELETE', pathOf(viaForm.response.headers.get('location')!), 204, { headers: STAFF });
    await call('POST', '/werke', 403, {
      headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
      body: { titel: 'Nein' },
    });
  });

  test('lending: borrow, renew, return, check in; holds: place, read, cancel', async () => {
    const anna = linkPath(
      (
        await json(
          await call('GET', '/sitzung', 200, {
            headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
          }),
        )
      ).ausleihen,
    );
    const ben = linkPath(
      (
        await json(
          await call('GET', '/sitzung', 200, { headers: { Authorization: basic('ben'), Accept: JSON_TYPE } }),
        )
      ).ausleihen,
    );
    await call('GET', anna, 200, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    await call('GET', ben, 403, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    const lendable = pathOf(
      (
        await call('POST', '/werke', 201, { headers: STAFF, body: { titel: 'Leihgabe', exemplare: 2 } })
      ).response.headers.get('location')!,
    );
    const lent = await call('POST', anna, 201, { headers: STAFF, body: { werk: lendable } });
    const loan = pathOf(lent.response.headers.get('location')!);
    await call('GET', loan, 200, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    await call('POST', `${loan}/verlaengerung`, 200, {
      headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
    });
    await call('DELETE', loan, 204, { headers: STAFF });
    await call('GET', loan, 410, { headers: STAFF }); // returned
    // A one-copy work lent to ben: anna may hold it; check-in by the copy's barcode.
    const work = pathOf(
      (
        await call('POST', '/werke', 201, { headers: STAFF, body: { titel: 'Einzelstück', exemplare: 1 } })
      ).response.headers.get('location')!,
    );
    const bens = await json(await call('POST', ben, 201, { headers: STAFF, body: { werk: work } }));
    await call('POST', '/personen/anna-berger/vormerkungen', 409, {
      headers: STAFF,
      body: { werk: '/werke/faust' },
    });
    const held = await call('POST', '/personen/anna-berger/vormerkungen', 201, {
      headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
      body: { werk: work },
    });
    const hold = pathOf(held.response.headers.get('location')!);
    await call('GET', hold, 200, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    await call('DELETE', hold, 204, { headers: { Authorization: basic('anna'), Accept: JSON_TYPE } });
    const exemplar = bens.exemplar as { url: string };
    const barcode = (await json(await call('GET', pathOf(exemplar.url), 200, { headers: STAFF })))
      .barcode as string;
    await call('POST', '/rueckgabe', 200, { headers: STAFF, body: { barcode } });
    await call('POST', '/rueckgabe', 409, { headers: STAFF, body: { barcode } });
    await call('GET', `/rueckgabe?barcode=${encodeURIComponent(barcode)}`, 200, { headers: STAFF });
    // The desk: ben by his card, the copy just checked in lent to him by its barcode, twice.
    const card = (await json(await call('GET', '/personen/ben-krueger/konto', 200, { headers: STAFF })))
      .ausweis as string;
    await call('GET', '/theke', 200, { headers: STAFF });
    await call('GET', `/theke?ausweis=${encodeURIComponent(card)}`, 200, { headers: STAFF });
    await call('POST', '/theke', 201, { headers: STAFF, body: { ausweis: card, barcode } });
    await call('POST', '/theke', 409, { headers: STAFF, body: { ausweis: card, barcode } });
  });

  test('accounts and passwords; log-in, the CSRF header and Origin of cookie writes, log-out', async () => {
    await call('POST', '/personen', 201, { headers: STAFF, body: { vorname: 'Lena', nachname: 'Christ' } });
    const account = '/personen/lena-christ/konto';
    const secret = 'lange-und-sicher-1';
    await call('PUT', account, 201, {
      headers: STAFF,
      body: { username: 'lena', rolle: 'member', gesperrt: false, passwort: secret, wiederholung: secret },
    });
    await call('PUT', account, 200, {
      headers: STAFF,
      body: { username: 'lena', rolle: 'member', gesperrt: false },
    });
    await call('PATCH', account, 200, {
      headers: STAFF,
      body: { gesperrt: true },
      type: 'application/merge-patch+json',
    });
    await call('PATCH', account, 200, {
      headers: STAFF,
      body: { gesperrt: false },
      type: 'application/merge-patch+json',
    });
    const renewed = 'noch-laenger-und-sicherer-2';
    await call('PUT', `${account}/passwort`, 204, {
      headers: { Authorization: basic('lena', secret), Accept: JSON_TYPE },
      body: { altesPasswort: secret, neuesPasswort: renewed },
    });
    await call('POST', '/sitzung', 401, {
      headers: { Accept: JSON_TYPE, Origin: c.origin },
      body: { username: 'lena', password: secret },
    });
    const login = await call('POST', '/sitzung', 200, {
      headers: { Accept: JSON_TYPE, Origin: c.origin },
      body: { username: 'lena', password: renewed },
    });
    const cookie = (login.response.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.match(cookie, /=/);
    const session = await json(
      await call('GET', '/sitzung', 200, { headers: { Cookie: cookie, Accept: JSON_TYPE } }),
    );
    const token = session.csrfToken as string;
    assert.ok(token);
    const loans = linkPath(session.ausleihen);
    const cookieWrite = { Cookie: cookie, Accept: JSON_TYPE, Origin: c.origin };
    // Without the token Prism refuses the request itself (the security requirement is not met),
    // so it goes to the server straight; its 403 must still be a status the operation lists.
    await direct('POST', loans, 403, { headers: cookieWrite, body: { werk: 'faust' } });
    await direct('POST', loans, 403, {
      headers: { ...cookieWrite, 'X-CSRF-Token': token, Origin: 'https://evil.example' },
      body: { werk: 'faust' },
    });
    await call('POST', loans, 201, {
      headers: { ...cookieWrite, 'X-CSRF-Token': token },
      body: { werk: 'faust' },
    });
    await call('DELETE', '/sitzung', 204, { headers: { ...cookieWrite, 'X-CSRF-Token': token } });
    await call('DELETE', account, 204, { headers: STAFF });
  });

  test('settings, password reset by mail, item types and closed days', async () => {
    const ben = { Authorization: basic('ben'), Accept: JSON_TYPE };
    const settings = '/personen/ben-krueger/konto/einstellungen';
    const read = await call('GET', settings, 200, { headers: ben });
    await call('PUT', settings, 200, {
      headers: { ...ben, 'If-Match': etagOf(read) },
      body: { email: 'ben@example.org', sprache: 'de', benachrichtigungen: true, passwort: 'ben' },
    });
    await call('PATCH', settings, 200, {
      headers: ben,
      body: { sprache: 'en' },
      type: 'application/merge-patch+json',
    });
    await direct('PUT', settings, 422, { headers: ben, body: { email: 'kein at', sprache: 'fr' } });

    await call('GET', '/passwort-vergessen', 200, { headers: { Accept: JSON_TYPE } });
    await call('POST', '/passwort-vergessen', 204, {
      headers: { Accept: JSON_TYPE },
      body: { konto: 'ben' },
    });
    await smtp.arrived(1);
    const link = /\/passwort-neu\/[A-Za-z0-9_-]{43}/.exec(smtp.received[0]!.text)?.[0];
    assert.ok(link, 'the mail carries the link');
    await call('GET', link, 200, { headers: { Accept: JSON_TYPE } });
    await direct('POST', link, 422, { headers: { Accept: JSON_TYPE }, body: { neuesPasswort: 'kurz' } });
    await call('POST', link, 204, {
      headers: { Accept: JSON_TYPE },
      body: { neuesPasswort: 'bens-neues-passwort' },
    });
    await call('POST', link, 410, {
      headers: { Accept: JSON_TYPE },
      body: { neuesPasswort: 'bens-drittes-pw' },
    });
    await call('GET', link, 410, { headers: { Accept: JSON_TYPE } });
    for (const status of [204, 204, 204, 429])
      await call('POST', '/passwort-vergessen', status, {
        headers: { Accept: JSON_TYPE },
        body: { konto: 'ben@example.org' },
      });

    await call('GET', '/ausleihregeln/medientypen', 200, { headers: STAFF });
    const created = await call('POST', '/ausleihregeln/medientypen', 201, {
      headers: STAFF,
      body: {
        code: 'karte',
        bezeichnung: 'Karte',
        bezeichnungEn: 'Map',
        ausleihbar: true,
        leihfristTage: 14,
      },
    });
    const type = pathOf(created.response.headers.get('location')!);
    const typeRead = await call('GET', type, 200, { headers: STAFF });
    await call('PUT', type, 200, {
      headers: { ...STAFF, 'If-Match': etagOf(typeRead) },
      body: { bezeichnung: 'Landkarte', bezeichnungEn: 'Map', ausleihbar: false },
    });
    await call('PATCH', type, 200, {
      headers: STAFF,
      body: { hoechstens: 3 },
      type: 'application/merge-patch+json',
    });
    await call('DELETE', '/ausleihregeln/medientypen/buch', 409, { headers: STAFF });
    await call('DELETE', type, 204, { headers: STAFF });
    await call('GET', '/ausleihregeln/medientypen', 403, {
      headers: { Authorization: basic('anna'), Accept: JSON_TYPE },
    });

    await call('GET', '/ausleihregeln/schliesstage', 200, { headers: STAFF });
    const day = await call('POST', '/ausleihregeln/schliesstage', 201, {
      headers: STAFF,
      body: { tag: '2026-12-24', anlass: 'Heiligabend' },
    });
    const dayPath = pathOf(day.response.headers.get('location')!);
    await call('POST', '/ausleihregeln/schliesstage', 409, { headers: STAFF, body: { tag: '2026-12-24' } });
    await call('GET', dayPath, 200, { headers: STAFF });
    await call('PUT', dayPath, 200, { headers: STAFF, body: { anlass: 'Weihnachten' } });
    await call('PUT', '/ausleihregeln/schliesstage/2026-12-31', 201, {
      headers: STAFF,
      body: { anlass: 'Silvester' },
    });
    await call('DELETE', dayPath, 204, { headers: STAFF });
  });

  test('every documented operation had traffic', () => {
    const missing = [...operations(doc).keys()].filter((id) => !seen.has(id));
    assert.deepEqual(missing, [], 'operations no test drove through the proxy');
  });
});
