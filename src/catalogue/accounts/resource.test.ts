// The account and its password over the real resource layer and the real stores (in-memory
// SQLite), with the layer's own sessions, Basic, CSRF and log-in limiter wired as in main.ts:
// who may see what, the password change ending the other sessions (and keeping this one), the
// staff's create / change / lock / delete, forms that never echo a password, schemas.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { catalogueResources } from '../index.ts';
import {
  accountSecurity,
  catalogueApp,
  cookieOf,
  deviceOf,
  logIn as logInAt,
  plainHash,
  type Device,
} from '../../../test/kit/catalogue/app.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { skipUnless } from '../../../test/support/requirements.ts';
import { htmlReport } from '../../../test/kit/html-report.ts';

const ORIGIN = 'https://library.example';
const basic = (user: string, pw: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`,
});
const stripDeclaration = (body: string) => body.replace(/^<\?xml[^>]*>\n?/, '');

async function setup() {
  const stores = await memoryCatalogue();
  const person = async (vorname: string, nachname: string, username?: string, role?: 'staff') => {
    const p = await stores.persons.create({ vorname, nachname });
    if (username)
      await stores.accounts.add({
        personId: p.id,
        username,
        passwordHash: await plainHash(`${username}-pass`),
        role,
      });
    return p;
  };
  const anna = await person('Anna', 'Berger', 'anna');
  const ben = await person('Ben', 'Adler', 'ben');
  await person('Petra', 'Personal', 'personal', 'staff');
  const carla = await person('Carla', 'Ohnekonto');
  const catalogue = catalogueResources(stores, { hashPassword: plainHash });
  const app = await catalogueApp(catalogue, { baseUrl: ORIGIN, ...accountSecurity(stores.accounts) });
  return { app, stores, anna, ben, carla };
}

const logIn = (app: FastifyInstance, username: string, password?: string) =>
  logInAt(app, ORIGIN, username, password);

async function whoAmIJson(app: FastifyInstance, device: Device): Promise<{ slug: string }> {
  const who = (await app.inject({ url: '/sitzung.json', headers: { cookie: device.cookie } })).json();
  return { slug: new URL(String(who.person.url)).pathname.replace('/personen/', '') };
}

async function whoIs(app: FastifyInstance, device: Device): Promise<string | null> {
  const who = (await app.inject({ url: '/sitzung.json', headers: { cookie: device.cookie } })).json();
  return who.angemeldet ? String(who.username) : null;
}

function send(
  app: FastifyInstance,
  method: string,
  url: string,
  device: Device | Record<string, string> | null,
  body?: unknown,
) {
  const auth =
    device === null
      ? {}
      : 'cookie' in device && 'token' in device
        ? { cookie: String(device.cookie), origin: ORIGIN, 'x-csrf-token': String(device.token) }
        : device;
  return app.inject({
    method: method as 'GET',
    url,
    headers: {
      accept: 'application/json',
      ...(body !== undefined && {
        'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
      }),
      ...auth,
    },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
}

function form(app: FastifyInstance, url: string, device: Device, fields: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      accept: 'text/html',
      cookie: device.cookie,
    },
    payload: new URLSearchParams({ ...fields, _csrf: device.token }).toString(),
  });
}

describe('the account and its password over HTTP', () => {
  let app: FastifyInstance;
  let annaSlug: string;
  let carlaSlug: string;
  let benSlug: string;

  before(async () => {
    const s = await setup();
    app = s.app;
    annaSlug = s.anna.slug;
    carlaSlug = s.carla.slug;
    benSlug = s.ben.slug;
  });

  test('who may read an account: the person and staff; everyone else 403, also for unknown persons', async () => {
    const anna = await logIn(app, 'anna');
    const ben = await logIn(app, 'ben');
    const staff = await logIn(app, 'personal');
    const path = `/personen/${annaSlug}/konto`;
    for (const [who, device, status] of [
      ['anonymous', null, 403],
      ['anna', anna, 200],
      ['ben', ben, 403],
      ['staff', staff, 200],
    ] as const) {
      assert.equal((await send(app, 'GET', path, device)).statusCode, status, `${who} GET ${path}`);
      assert.equal(
        (await send(app, 'GET', `${path}/passwort`, device)).statusCode,
        status,
        `${who} password`,
      );
    }
    assert.equal(
      (await send(app, 'GET', '/personen/niemand/konto', ben)).statusCode,
      403,
      'existence not told',
    );
    assert.equal((await send(app, 'GET', '/personen/niemand/konto', staff)).statusCode, 404);
    assert.equal(
      (await send(app, 'GET', `/personen/${carlaSlug}/konto`, staff)).statusCode,
      404,
      'no account',
    );
    assert.equal((await send(app, 'GET', `/personen/${carlaSlug}/konto`, ben)).statusCode, 403);
    const refused = await send(app, 'GET', path, ben);
    assert.equal(refused.json().code, 'SHELFMARK_FORBIDDEN');
    assert.doesNotMatch(refused.body, /"anna"|username/, 'a refusal does not name the account');
  });

  test('representations validate against their schemas and never carry a password', async () => {
    const anna = await logIn(app, 'anna');
    const json = await send(app, 'GET', `/personen/${annaSlug}/konto.json`, anna);
    assert.equal(json.statusCode, 200);
    assert.equal(jsonErrors('account', json.json()), '');
    assert.equal(json.json().username, 'anna');
    assert.equal(json.json().gesperrt, false);
    assert.match(String(json.headers.link), /rel="describedby"/);
    assert.ok(json.headers.etag && json.headers['last-modified']);
    const password = await send(app, 'GET', `/personen/${annaSlug}/konto/passwort.json`, anna);
    assert.equal(jsonErrors('password', password.json()), '');
    for (const res of [json, password]) assert.doesNotMatch(res.body, /plain:|anna-pass|passwordHash/);
    const again = await app.inject({
      url: `/personen/${annaSlug}/konto.json`,
      headers: { cookie: anna.cookie, 'if-none-match': String(json.headers.etag) },
    });
    assert.equal(again.statusCode, 304, 'conditional GET');
  });

  test('XML validates against the XSDs', skipUnless('xmllint'), async () => {
    const staff = await logIn(app, 'personal');
    const account = await send(app, 'GET', `/personen/${annaSlug}/konto.xml`, staff);
    assert.equal(await xmlErrors('account', stripDeclaration(account.body)), '');
    const password = await send(app, 'GET', `/personen/${annaSlug}/konto/passwort.xml`, staff);
    assert.equal(await xmlErrors('password', stripDeclaration(password.body)), '');
  });

  test('a member changes their password: other devices and Basic end, this device stays (204)', async () => {
    const here = await logIn(app, 'ben');
    const there = await logIn(app, 'ben');
    const staff = await logIn(app, 'personal');
    const path = `/personen/${benSlug}/konto/passwort`;
    assert.equal((await send(app, 'GET', '/sitzung.json', basic('ben', 'ben-pass'))).statusCode, 200);

    const missing = await send(app, 'PUT', path, here, { neuesPasswort: 'ein-neues-passwort' });
    assert.equal(missing.statusCode, 422);
    assert.deepEqual(
      missing.json().errors.map((e: { field: string }) => e.field),
      ['altesPasswort'],
    );
    const wrong = await send(app, 'PUT', path, here, {
      altesPasswort: 'falsch',
      neuesPasswort: 'ein-neues-passwort',
    });
    assert.equal(wrong.statusCode, 422, 'a wrong old password is a field problem');
    assert.deepEqual(wrong.json().errors, [{ field: 'altesPasswort', detail: 'is wrong' }]);
    const weak = await send(app, 'PUT', path, here, { altesPasswort: 'ben-pass', neuesPasswort: 'kurz' });
    assert.equal(weak.statusCode, 422);
    assert.equal(weak.json().errors[0].field, 'neuesPasswort');
    const same = await send(app, 'PUT', path, here, { altesPasswort: 'ben-pass', neuesPasswort: 'Ben ' });
    assert.equal(same.statusCode, 422);
    for (const res of [missing, wrong, weak, same]) assert.doesNotMatch(res.body, /ben-pass|ein-neues|kurz/);
    assert.equal(await whoIs(app, there), 'ben', 'nothing changed yet');

    const changed = await send(app, 'PUT', path, here, {
      altesPasswort: 'ben-pass',
      neuesPasswort: 'ein-neues-passwort',
    });
    assert.equal(changed.statusCode, 204, changed.body);
    const renewed = await deviceOf(app, cookieOf(changed));
    assert.equal(renewed.token, here.token, 'the same session: its CSRF token stays valid');
    assert.equal(await whoIs(app, renewed), 'ben', 'this device stays logged in');
    assert.equal(await whoIs(app, here), null, 'its old cookie is over too');
    assert.equal(await whoIs(app, there), null, 'the other device is logged out');
    assert.equal((await send(app, 'GET', '/sitzung.json', basic('ben', 'ben-pass'))).statusCode, 401);
    assert.equal(
      (await send(app, 'GET', '/sitzung.json', basic('ben', 'ein-neues-passwort'))).statusCode,
      200,
    );
    assert.equal(await whoIs(app, staff), 'personal', "other accounts' sessions are untouched");
    await logIn(app, 'ben', 'ein-neues-passwort');
  });

  test('the password form: no value is ever echoed; 422 shows it again; 303 after the change', async () => {
    const anna = await logIn(app, 'anna');
    const path = `/personen/${annaSlug}/konto/passwort`;
    const page = await app.inject({ url: path, headers: { cookie: anna.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /name="altesPasswort" type="password" autocomplete="current-password"/);
    assert.match(page.body, /name="wiederholung"/);
    assert.match(page.body, /name="_method" value="PUT"/);
    const mismatch = await form(app, path, anna, {
      _method: 'PUT',
      altesPasswort: 'anna-pass',
      neuesPasswort: 'geheim-und-lang',
      wiederholung: 'geheim-und-lanG',
    });
    assert.equal(mismatch.statusCode, 422);
    assert.match(mismatch.body, /stimmen nicht überein/);
    assert.doesNotMatch(mismatch.body, /anna-pass|geheim-und-lan/, 'no password echoed');
    assert.doesNotMatch(mismatch.body, /type="password"[^>]*value=/);
    const done = await form(app, path, anna, {
      _method: 'PUT',
      altesPasswort: 'anna-pass',
      neuesPasswort: 'geheim-und-lang',
      wiederholung: 'geheim-und-lang',
    });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, `${ORIGIN}/personen/${annaSlug}/konto`);
    assert.equal(await whoIs(app, await deviceOf(app, cookieOf(done))), 'anna');
    await logIn(app, 'anna', 'geheim-und-lang');
  });

  test('wrong old passwords are rate-limited like log-ins (429)', async () => {
    const { app: own, anna } = await setup();
    const device = await logIn(own, 'anna');
    const path = `/personen/${anna.slug}/konto/passwort`;
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await send(own, 'PUT', path, device, {
            altesPasswort: `falsch-${i}`,
            neuesPasswort: 'neu-und-lang',
          })
        ).statusCode,
      );
    assert.deepEqual(statuses, [422, 422, 422, 422, 422, 429]);
    const right = await send(own, 'PUT', path, device, {
      altesPasswort: 'anna-pass',
      neuesPasswort: 'neu-und-lang',
    });
    assert.equal(right.statusCode, 429, 'even the right one while limited');
    assert.ok(right.headers['retry-after']);
  });

  test('staff: create, change role and lock, reset, delete; a locked account cannot log in', async () => {
    const staff = await logIn(app, 'personal');
    const ben = await logIn(app, 'ben', 'ein-neues-passwort');
    const path = `/personen/${carlaSlug}/konto`;
    assert.equal(
      (
        await send(app, 'PUT', path, ben, {
          username: 'x',
          rolle: 'member',
          gesperrt: false,
          passwort: 'lang-genug',
        })
      ).statusCode,
      403,
    );

    const page = await app.inject({ url: `${path}?anlegen`, headers: { cookie: staff.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /name="username"/);
    const taken = await send(app, 'PUT', path, staff, {
      username: 'anna',
      rolle: 'member',
      gesperrt: false,
      passwort: 'lang-genug',
    });
    assert.equal(taken.statusCode, 409);
    const weak = await send(app, 'PUT', path, staff, {
      username: 'carla',
      rolle: 'member',
      gesperrt: false,
      passwort: 'carla',
    });
    assert.equal(weak.statusCode, 422);
    const created = await send(app, 'PUT', path, staff, {
      username: 'Carla',
      rolle: 'member',
      gesperrt: false,
      passwort: 'carlas-passwort',
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers.location, `${ORIGIN}${path}`);
    assert.equal(created.json().username, 'carla');
    assert.equal(jsonErrors('account', created.json()), '');
    const carla = await logIn(app, 'carla', 'carlas-passwort');

    const fixed = await send(app, 'PUT', path, staff, {
      username: 'carla2',
      rolle: 'member',
      gesperrt: false,
    });
    assert.equal(fixed.statusCode, 422, 'the user name stays');
    const etag = String((await send(app, 'GET', path, staff)).headers.etag);
    const locked = await send(app, 'PATCH', path, { ...staff, 'if-match': etag } as never, {
      gesperrt: true,
    });
    assert.equal(locked.statusCode, 200, locked.body);
    assert.equal(locked.json().gesperrt, true);
    assert.equal(jsonErrors('account', locked.json()), '');
    const stale = await send(
      app,
      'PATCH',
      path,
      { cookie: staff.cookie, origin: ORIGIN, 'x-csrf-token': staff.token, 'if-match': etag },
      { gesperrt: false },
    );
    assert.equal(stale.statusCode, 412, 'a stale If-Match');

    assert.equal(await whoIs(app, carla), null, 'locking ends the session');
    const refusedForm = await app.inject({
      method: 'POST',
      url: '/sitzung',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      payload: 'username=carla&password=carlas-passwort',
    });
    assert.equal(refusedForm.statusCode, 401, 'a locked account cannot log in with the form');
    assert.equal(
      (await send(app, 'GET', '/sitzung.json', basic('carla', 'carlas-passwort'))).statusCode,
      401,
      'nor with Basic',
    );
    assert.equal(
      (await send(app, 'GET', path, staff)).statusCode,
      200,
      'locked ≠ deleted: staff still see it',
    );

    const reset = await send(app, 'PUT', `${path}/passwort`, staff, { neuesPasswort: 'zurueckgesetzt' });
    assert.equal(reset.statusCode, 204, 'staff reset: no old password');
    assert.equal(reset.headers['set-cookie'], undefined, "staff's own cookie is not touched");
    const unlocked = await send(app, 'PATCH', path, staff, { gesperrt: false, rolle: 'staff' });
    assert.equal(unlocked.statusCode, 200);
    assert.equal(unlocked.json().rolle, 'staff');
    const again = await logIn(app, 'carla', 'zurueckgesetzt');
    assert.equal(await whoIs(app, again), 'carla');
    assert.equal((await send(app, 'PATCH', path, staff, { rolle: 'member' })).statusCode, 200);
    assert.equal(await whoIs(app, again), null, 'a role change ends the sessions too');

    const own = `/personen/${(await whoAmIJson(app, staff)).slug}/konto`;
    for (const [method, body] of [
      ['PATCH', { gesperrt: true }],
      ['PATCH', { rolle: 'member' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(app, method, own, staff, body);
      assert.equal(res.statusCode, 409, `staff ${method} their own account ${JSON.stringify(body)}`);
    }
    assert.equal(await whoIs(app, staff), 'personal', 'and stay logged in as staff');
    assert.equal((await send(app, 'DELETE', path, ben)).statusCode, 403);
    assert.equal((await send(app, 'DELETE', path, staff)).statusCode, 204);
    assert.equal((await send(app, 'GET', path, staff)).statusCode, 404);
    assert.equal((await send(app, 'GET', '/sitzung.json', basic('carla', 'zurueckgesetzt'))).statusCode, 401);
  });

  test('staff forms: the account page has the role/lock form and delete; the create form PUTs', async () => {
    const staff = await logIn(app, 'personal');
    const page = await app.inject({ url: `/personen/${annaSlug}/konto`, headers: { cookie: staff.cookie } });
    assert.match(page.body, /<select id="konto-rolle" name="rolle">/);
    // German dates on a German page, not ISO text (ISO stays in datetime).
    assert.match(page.body, /<time datetime="[^"]+Z">\d{1,2}\. [A-ZÄÖÜa-zäöü]+ \d{4} um /);
    assert.doesNotMatch(page.body, />\d{4}-\d{2}-\d{2}T[^<]*</);
    // The library card number is shown (ADR 0082).
    assert.match(page.body, /<dd class="ausweis">L\d{6}<\/dd>/);
    assert.match(page.body, /name="_method" value="DELETE"/);
    assert.match(page.body, /name="_version"/);
    const created = await form(app, `/personen/${carlaSlug}/konto`, staff, {
      _method: 'PUT',
      username: 'carla',
      rolle: 'member',
      passwort: 'formular-passwort',
      wiederholung: 'formular-passwort',
    });
    assert.equal(created.statusCode, 303, created.body);
    const account = await send(app, 'GET', `/personen/${carlaSlug}/konto`, staff);
    assert.equal(account.json().gesperrt, false, 'an unticked box: not locked');
  });

  test('every account page is valid HTML (Nu checker)', skipUnless('java'), async () => {
    const { app: own, anna, carla } = await setup();
    const staff = await logIn(own, 'personal');
    const member = await logIn(own, 'anna');
    const get = async (url: string, device: Device, lang = 'de') =>
      (await own.inject({ url, headers: { cookie: device.cookie, 'accept-language': lang } })).body;
    const account = `/personen/${anna.slug}/konto`;
    const pages = {
      'account-staff': await get(account, staff),
      'account-self-en': await get(account, member, 'en'),
      'password-self': await get(`${account}/passwort`, member),
      'password-reset': await get(`${account}/passwort`, staff, 'en'),
      'account-create': await get(`/personen/${carla.slug}/konto?anlegen`, staff),
      'password-422': (
        await form(own, `${account}/passwort`, member, {
          _method: 'PUT',
          altesPasswort: 'x',
          neuesPasswort: 'y',
        })
      ).body,
      'create-422': (
        await form(own, `/personen/${carla.slug}/konto`, staff, { _method: 'PUT', username: '-' })
      ).body,
      'person-self': await get(`/personen/${anna.slug}`, member),
      'person-staff-no-account': await get(`/personen/${carla.slug}`, staff),
    };
    assert.match(pages['password-422'], /Das bisherige Passwort ist falsch/);
    assert.match(
      pages['person-self'],
      /href="\/personen\/anna-berger\/konto"/,
      'the own person page links the account',
    );
    assert.match(pages['person-staff-no-account'], /konto\?anlegen/, 'staff are offered to create one');
    const report = await htmlReport(Object.entries(pages).map(([name, html]) => ({ name, html })));
    assert.equal(report, '');
  });

  test('the person page links the account for that person and staff only', async () => {
    const { app: own, anna } = await setup();
    const ben = await logIn(own, 'ben');
    for (const device of [null, ben]) {
      const page = await own.inject({
        url: `/personen/${anna.slug}`,
        headers: device ? { cookie: device.cookie } : {},
      });
      // Ben's own "Mein Konto" (`/konto?id=`) is in the header; Anna's account is linked nowhere.
      assert.doesNotMatch(page.body, new RegExp(`/personen/${anna.slug}/konto`));
      assert.doesNotMatch(page.body, new RegExp(`/konto\\?(id=${anna.id}|slug=)`));
    }
  });
});
