// /sitzung on the real layer: log in and out from forms and API clients, safe return paths,
// the layout's header, the 401/403 pages with the form, schemas.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { HttpError } from '../../http/errors/index.ts';
import { catalogueResources } from '../index.ts';
import { catalogueApp } from '../../../test/kit/catalogue/app.ts';
import { fakePersonStore, fakeWorkStore, goethe } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { safeReturnPath } from './return-path.ts';

const ORIGIN = 'https://library.example';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };
const GOETHE = { id: 1, username: 'goethe', role: 'member' as const, passwordHash: 'pw-goethe' };

/** Answers 403 to everyone: stands in for another user's loans. */
const forbidden: ResourceDefinition = {
  name: 'forbidden',
  path: '/geheim',
  methods: {
    GET: async () => {
      throw new HttpError('SHELFMARK_FORBIDDEN');
    },
  },
};

async function app(): Promise<FastifyInstance> {
  const catalogue = catalogueResources({ persons: fakePersonStore(), works: fakeWorkStore() });
  return catalogueApp(catalogue, {
    baseUrl: ORIGIN,
    resources: [...catalogue.resources, forbidden],
    loginPath: '/sitzung',
    security: {
      secrets: ['t'.repeat(40)],
      findUser: async (name) => (name === 'goethe' ? GOETHE : null),
      findUserById: async (id) => (id === 1 ? GOETHE : null),
      verifyPassword: async (password, hash) => `pw-${password}` === hash,
    },
  });
}

const logIn = (server: FastifyInstance, payload: string, headers: Record<string, string> = {}) =>
  server.inject({ method: 'POST', url: '/sitzung', headers: { ...FORM, ...headers }, payload });

test('safeReturnPath accepts local paths only', () => {
  for (const good of ['/', '/werke/faust', '/werke?q=a%20b', '/personen/goethe#werke'])
    assert.equal(safeReturnPath(good), good);
  for (const bad of [
    '//evil.example',
    '/\\evil.example',
    '\\\\evil',
    'https://evil.example',
    'javascript:alert(1)',
    'werke',
    '',
    '/a\nb',
    '/a\tb',
    42,
    undefined,
  ])
    assert.equal(safeReturnPath(bad), null, String(bad));
});

test('GET /sitzung: an accessible form with a hidden return path; XML/JSON say nobody is logged in', async () => {
  const server = await app();
  const page = await server.inject({ method: 'GET', url: '/sitzung?zurueck=%2Fwerke%2Ffaust' });
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['set-cookie'], undefined);
  assert.match(page.body, /<label for="anmeldung-name">Benutzername<\/label>/);
  assert.match(page.body, /id="anmeldung-name"\s+name="username"/);
  assert.match(page.body, /<label for="anmeldung-passwort">Passwort<\/label>/);
  assert.match(page.body, /<input type="hidden" name="zurueck" value="\/werke\/faust" \/>/);
  const evil = await server.inject({ method: 'GET', url: '/sitzung?zurueck=%2F%2Fevil.example' });
  assert.match(evil.body, /name="zurueck" value="\/"/);
  const json = await server.inject({ method: 'GET', url: '/sitzung.json' });
  assert.deepEqual(json.json(), { angemeldet: false });
  assert.equal(jsonErrors('session', json.json()), '');
  const xmlDoc = await server.inject({ method: 'GET', url: '/sitzung.xml' });
  assert.equal(await xmlErrors('session', xmlDoc.body.replace(/^<\?xml[^>]*>\n?/, '')), '');
  assert.equal((await server.inject('/schema/session.json')).statusCode, 200);
});

test('form log-in: 303 to a local zurueck, to / for anything else, root-relative (the host the browser used)', async () => {
  const server = await app();
  const cases: [string, string][] = [
    ['/werke/faust', `/werke/faust`],
    ['//evil.example', `/`],
    ['/\\evil.example', `/`],
    ['https://evil.example', `/`],
    ['', `/`],
    // Outside Latin-1 and outside ASCII: percent-encoded UTF-8, never a 500 or a raw byte.
    ['/€', `/%E2%82%AC`],
    ['/ü', `/%C3%BC`],
    ['/werke?q=faust eins', `/werke?q=faust%20eins`],
  ];
  for (const [zurueck, location] of cases) {
    const res = await logIn(
      server,
      `username=goethe&password=goethe&zurueck=${encodeURIComponent(zurueck)}`,
      {
        accept: 'text/html',
      },
    );
    assert.equal(res.statusCode, 303, zurueck);
    assert.equal(res.headers.location, location, zurueck);
    const attributes = String(res.headers['set-cookie']).split('; ').slice(1).sort();
    assert.deepEqual(attributes, ['HttpOnly', 'Max-Age=28800', 'Path=/', 'SameSite=Lax', 'Secure']);
  }
});

test('logged in: header shows the name and a log-out button; the JSON carries the CSRF token', async () => {
  const server = await app();
  const login = await logIn(server, 'username=goethe&password=goethe');
  const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  const home = await server.inject({ method: 'GET', url: '/', headers: { cookie } });
  assert.match(home.body, /angemeldet als <a href="\/sitzung">goethe<\/a>/);
  const token = /name="_csrf" value="([^"]+)"/.exec(home.body)?.[1];
  assert.ok(token);
  assert.match(home.body, /<input type="hidden" name="_method" value="DELETE" \/>/);
  const anonymous = await server.inject({ method: 'GET', url: '/werke' });
  assert.match(anonymous.body, /<a href="\/sitzung\?zurueck=%2Fwerke">Anmelden<\/a>/);
  assert.doesNotMatch(anonymous.body, /_csrf/);

  const json = await server.inject({ method: 'GET', url: '/sitzung.json', headers: { cookie } });
  const body = json.json();
  assert.equal(jsonErrors('session', body), '');
  assert.equal(body.username, 'goethe');
  assert.equal(body.person.url, `${ORIGIN}/personen/${goethe.slug}`);
  assert.equal(body.csrfToken, token);
  const xmlDoc = await server.inject({ method: 'GET', url: '/sitzung.xml', headers: { cookie } });
  assert.equal(await xmlErrors('session', xmlDoc.body.replace(/^<\?xml[^>]*>\n?/, '')), '');

  const noToken = await server.inject({
    method: 'POST',
    url: '/sitzung',
    headers: { ...FORM, cookie },
    payload: '_method=DELETE',
  });
  assert.equal(noToken.statusCode, 403, 'log-out is not a log-in: it needs the token');
  const out = await server.inject({
    method: 'POST',
    url: '/sitzung',
    headers: { ...FORM, cookie, accept: 'text/html' },
    payload: `_method=DELETE&_csrf=${encodeURIComponent(token)}`,
  });
  assert.equal(out.statusCode, 303);
  assert.equal(out.headers.location, `/`);
  assert.match(String(out.headers['set-cookie']), /^shelfmark_session=; Max-Age=0/);
});

test('API log-in: 200 with who is logged in; log-out: 204', async () => {
  const server = await app();
  const res = await server.inject({
    method: 'POST',
    url: '/sitzung.json',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    payload: JSON.stringify({ username: 'goethe', password: 'goethe' }),
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().username, 'goethe');
  const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  const out = await server.inject({
    method: 'DELETE',
    url: '/sitzung.json',
    headers: { cookie, origin: ORIGIN, 'x-csrf-token': res.json().csrfToken },
  });
  assert.equal(out.statusCode, 204);
});

test('a wrong password: 401 with the form again (HTML) or problem details; missing fields 422', async () => {
  const server = await app();
  const page = await logIn(server, 'username=goethe&password=nein&zurueck=%2Fwerke', { accept: 'text/html' });
  assert.equal(page.statusCode, 401);
  assert.equal(page.headers['set-cookie'], undefined);
  assert.match(page.body, /Benutzername oder Passwort ist falsch\./);
  assert.match(page.body, /<form class="login" method="post" action="\/sitzung">/);
  const kept = await server.inject({
    method: 'POST',
    url: '/sitzung?zurueck=%2Fwerke',
    headers: { ...FORM, accept: 'text/html' },
    payload: 'username=goethe&password=nein&zurueck=%2Fwerke',
  });
  assert.match(kept.body, /name="zurueck" value="\/werke"/, 'the return path survives a failed attempt');
  const json = await server.inject({
    method: 'POST',
    url: '/sitzung.json',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    payload: '{"username":"goethe","password":"nein"}',
  });
  assert.equal(json.statusCode, 401);
  assert.equal(json.json().code, 'SHELFMARK_UNAUTHENTICATED');
  const missing = await logIn(server, 'username=goethe');
  assert.equal(missing.statusCode, 422);
});

test('the HTML 403 page offers the log-in form, returning to the refused page', async () => {
  const server = await app();
  const res = await server.inject({ method: 'GET', url: '/geheim?seite=2' });
  assert.equal(res.statusCode, 403);
  assert.match(res.body, /Melden Sie sich an, um diese Seite zu sehen/);
  assert.match(res.body, /name="zurueck" value="\/geheim\?seite=2"/);
  assert.match(res.body, /<label for="anmeldung-fehler-name">/);
  const cookie = String((await logIn(server, 'username=goethe&password=goethe')).headers['set-cookie']).split(
    ';',
  )[0];
  const mine = await server.inject({ method: 'GET', url: '/geheim', headers: { cookie: cookie ?? '' } });
  assert.match(mine.body, /Sie sind als goethe angemeldet/);
  assert.match(mine.body, /angemeldet als <a href="\/sitzung">goethe<\/a>/, 'the error page knows who asks');
});
