// The patron's settings over the real resource layer and stores (in-memory SQLite), with
// sessions, CSRF and Basic wired as in main.ts: who may read and write them, PUT / PATCH with
// preconditions, 422 problems in each format and on the form, the form's 303, the schemas.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { catalogueResources } from '../index.ts';
import {
  accountSecurity,
  catalogueApp,
  logIn as logInAt,
  plainHash,
  type Device,
} from '../../../test/kit/catalogue/app.ts';
import { memoryCatalogue, type MemoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { skipUnless } from '../../../test/support/requirements.ts';
import { htmlReport } from '../../../test/kit/html-report.ts';

const ORIGIN = 'https://library.example';
const basic = (user: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${user}-pass`).toString('base64')}`,
});
const stripDeclaration = (body: string) => body.replace(/^<\?xml[^>]*>\n?/, '');

describe('a patron’s settings over HTTP', () => {
  let app: FastifyInstance;
  let stores: MemoryCatalogue;
  let anna: { id: number; slug: string };
  let path: string;

  before(async () => {
    stores = await memoryCatalogue();
    const person = async (vorname: string, nachname: string, username: string, role?: 'staff') => {
      const p = await stores.persons.create({ vorname, nachname });
      await stores.accounts.add({
        personId: p.id,
        username,
        passwordHash: await plainHash(`${username}-pass`),
        ...(role && { role }),
      });
      return p;
    };
    anna = await person('Anna', 'Berger', 'anna');
    await person('Ben', 'Adler', 'ben');
    await person('Petra', 'Personal', 'personal', 'staff');
    path = `/personen/${anna.slug}/konto/einstellungen`;
    const catalogue = catalogueResources(stores, { hashPassword: plainHash });
    app = await catalogueApp(catalogue, { baseUrl: ORIGIN, ...accountSecurity(stores.accounts) });
  });

  const send = (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: unknown,
    type = 'application/json',
  ) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: {
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': type }),
        ...headers,
      },
      ...(body !== undefined && { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });

  const logIn = (username: string) => logInAt(app, ORIGIN, username);

  /** The settings form as a browser sends it from `device`'s session: POST with _method=PUT. */
  const putForm = (device: Device, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
        accept: 'text/html',
        cookie: device.cookie,
      },
      payload: new URLSearchParams({ _method: 'PUT', _csrf: device.token, ...fields }).toString(),
    });

  test('the person and staff read them; another member and anonymous clients get 403', async () => {
    assert.equal((await send('GET', path, basic('anna'))).statusCode, 200);
    assert.equal((await send('GET', path, basic('personal'))).statusCode, 200);
    assert.equal((await send('GET', path, basic('ben'))).json().code, 'SHELFMARK_FORBIDDEN');
    assert.equal((await send('GET', path, {})).statusCode, 403);
    assert.equal(
      (await send('PUT', path, basic('ben'), { sprache: 'de', benachrichtigungen: true })).statusCode,
      403,
    );
    const fresh = (await send('GET', path, basic('anna'))).json();
    assert.deepEqual(
      { email: fresh.email, sprache: fresh.sprache, benachrichtigungen: fresh.benachrichtigungen },
      { email: null, sprache: 'de', benachrichtigungen: true },
      'a new account: no address, German, notices on',
    );
  });

  test('PUT and PATCH write them, with If-Match; the store reads what was written', async () => {
    const before = await send('GET', path, basic('anna'));
    const put = await send(
      'PUT',
      path,
      { ...basic('anna'), 'if-match': String(before.headers.etag) },
      { email: ' anna@example.org ', sprache: 'en', benachrichtigungen: false, passwort: 'anna-pass' },
    );
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().email, 'anna@example.org', 'trimmed');
    assert.equal(jsonErrors('settings', put.json()), '');
    assert.deepEqual(await stores.settings.read(anna.id), {
      email: 'anna@example.org',
      language: 'en',
      optOut: true,
      updatedAt: new Date(put.json().geaendert),
    });
    const stale = await send(
      'PATCH',
      path,
      { ...basic('anna'), 'if-match': String(before.headers.etag) },
      { benachrichtigungen: true },
      'application/merge-patch+json',
    );
    assert.equal(stale.statusCode, 412, 'a stale version is refused');
    const patched = await send(
      'PATCH',
      path,
      { ...basic('personal'), 'if-match': String(put.headers.etag) },
      { benachrichtigungen: true },
      'application/merge-patch+json',
    );
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().email, 'anna@example.org', 'PATCH keeps what it does not name');
    assert.equal(patched.json().benachrichtigungen, true);
    const cleared = await send(
      'PATCH',
      path,
      basic('anna'),
      { email: null, passwort: 'anna-pass' },
      'application/merge-patch+json',
    );
    assert.equal(cleared.json().email, null);
  });

  test('the person changing their own address confirms it with the password; staff need not', async () => {
    const before = await stores.settings.read(anna.id);
    const change = { email: 'fremd@example.org', sprache: 'de', benachrichtigungen: true };
    const without = await send('PUT', path, basic('anna'), change);
    assert.equal(without.statusCode, 422);
    assert.deepEqual(without.json().errors, [
      { field: 'passwort', detail: 'is required to change the own e-mail address' },
    ]);
    const wrong = await send('PUT', path, basic('anna'), { ...change, passwort: 'falsch-geraten' });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json().errors[0].detail, 'is wrong');
    assert.deepEqual(await stores.settings.read(anna.id), before, 'nothing written');
    const sameAddress = await send('PUT', path, basic('anna'), {
      email: before?.email ?? null,
      sprache: 'en',
      benachrichtigungen: true,
    });
    assert.equal(sameAddress.statusCode, 200, 'language and notices need no password');
    const staff = await send('PUT', path, basic('personal'), { ...change, email: 'anna@example.net' });
    assert.equal(staff.statusCode, 200, staff.body);
  });

  test('bad fields are 422 problems in JSON and XML, and nothing is written', async () => {
    const before = await stores.settings.read(anna.id);
    const bad = await send('PUT', path, basic('anna'), { email: 'kein-at', sprache: 'fr' });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().code, 'SHELFMARK_VALIDATION_FAILED');
    assert.deepEqual(
      bad.json().errors.map((e: { field: string }) => e.field),
      ['email', 'sprache', 'benachrichtigungen'],
    );
    const xml = await send(
      'PUT',
      path,
      { ...basic('anna'), accept: 'application/xml' },
      '<einstellungen><email>a@b</email><sprache>de</sprache><benachrichtigungen>true</benachrichtigungen></einstellungen>',
      'application/xml',
    );
    assert.equal(xml.statusCode, 422);
    assert.match(String(xml.headers['content-type']), /application\/problem\+xml/);
    assert.deepEqual(await stores.settings.read(anna.id), before);
  });

  test('the form: 422 shows the problem beside the field; a good one answers 303', async () => {
    const device = await logIn('anna');
    const page = await app.inject({ url: path, headers: { cookie: device.cookie, accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    const version = /name="_version" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(version, 'the form carries the version');
    const post = (fields: Record<string, string>) => putForm(device, fields);
    const invalid = await post({ _version: version, email: 'anna at example', sprache: 'de' });
    assert.equal(invalid.statusCode, 422);
    assert.match(invalid.body, /aria-invalid="true"/);
    assert.match(invalid.body, /value="anna at example"/, 'the entry is shown again');
    const noPassword = await post({ _version: version, email: 'anna@example.com', sprache: 'de' });
    assert.equal(noPassword.statusCode, 422);
    assert.match(noPassword.body, /id="einstellungen-passwort-fehler"/);
    const ok = await post({
      _version: version,
      email: 'anna@example.com',
      sprache: 'de',
      passwort: 'anna-pass',
    });
    assert.equal(ok.statusCode, 303, ok.body);
    assert.equal(ok.headers.location, `${ORIGIN}${path}`);
    const after = await stores.settings.read(anna.id);
    assert.equal(after?.email, 'anna@example.com');
    assert.equal(after?.optOut, true, 'an unticked checkbox opts out');
    const account = await app.inject({
      url: `/personen/${anna.slug}/konto`,
      headers: { cookie: device.cookie, accept: 'text/html' },
    });
    assert.match(account.body, new RegExp(`href="${path}"`), 'the account page links the settings');
    const json = await send('GET', `/personen/${anna.slug}/konto`, basic('anna'));
    assert.match(
      String(json.headers.link),
      new RegExp(`<${ORIGIN}${path}>; rel="related"`),
      'and its Link header',
    );
  });

  test('XML validates against its schema', skipUnless('xmllint'), async () => {
    const xml = await send('GET', `${path}.xml`, basic('anna'));
    assert.equal(xml.statusCode, 200);
    assert.equal(await xmlErrors('settings', stripDeclaration(xml.body)), '');
  });

  test('the pages are valid HTML', skipUnless('java'), async () => {
    const device = await logIn('anna');
    const page = await app.inject({ url: path, headers: { cookie: device.cookie, accept: 'text/html' } });
    const invalid = await putForm(device, { email: 'x', sprache: 'xx' });
    assert.equal(invalid.statusCode, 422);
    const report = await htmlReport([
      { name: 'settings', html: page.body },
      { name: 'settings-422', html: invalid.body },
    ]);
    assert.equal(report, '');
  });
});
