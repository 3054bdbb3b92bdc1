// Sessions, CSRF, method override and preconditions as wired by createResourceApp.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSessionCodec } from '../session/index.ts';
import { loggedUsers, ORIGIN, SECRET, securityApp, state } from '../../../test/kit/http/security-app.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };
const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;

beforeEach(() => {
  state.name = 'eins';
});

async function logIn(
  app: FastifyInstance,
  user = 'anna',
): Promise<{ cookie: string; token: string; setCookie: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/katalog/anmeldung.json',
    headers: FORM,
    payload: `username=${user}&password=${user}`,
  });
  assert.equal(res.statusCode, 200, res.body);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = setCookie.split(';')[0] as string;
  const page = await app.inject({ method: 'GET', url: '/katalog/ding.html', headers: { cookie } });
  const token = /<p>\S+ (\S+)<\/p>/.exec(page.body)?.[1] ?? '';
  assert.notEqual(token, '-');
  return { cookie, token, setCookie };
}

test('log in sets one signed cookie with HttpOnly, SameSite=Lax, Path=<base>, Secure under https', async () => {
  const app = await securityApp();
  const { setCookie, cookie } = await logIn(app);
  assert.match(setCookie, /^shelfmark_session=[\w-]+\.[\w-]+; /);
  for (const attribute of ['HttpOnly', 'SameSite=Lax', 'Path=/katalog', 'Secure', 'Max-Age=28800'])
    assert.ok(setCookie.split('; ').includes(attribute), `${attribute} in ${setCookie}`);
  const page = await app.inject({ method: 'GET', url: '/katalog/ding', headers: { cookie } });
  assert.match(page.body, /<p>anna /);
  assert.equal(page.headers['cache-control'], 'private, no-cache');
  assert.equal(loggedUsers.at(-1), 'anna', '%u shows the session user');

  const plain = await securityApp({ baseUrl: 'http://localhost:3000' });
  const res = await plain.inject({
    method: 'POST',
    url: '/anmeldung',
    headers: { ...FORM, origin: 'http://localhost:3000' },
    payload: 'username=anna&password=anna',
  });
  assert.doesNotMatch(String(res.headers['set-cookie']), /Secure/);
  assert.match(String(res.headers['set-cookie']), /Path=\//);
});

test('a log-in in the handler changes its context: the user and the token of the new session', async () => {
  const app = await securityApp();
  const res = await app.inject({
    method: 'POST',
    url: '/katalog/anmeldung.html',
    headers: FORM,
    payload: 'username=anna&password=anna',
  });
  assert.equal(res.statusCode, 200, res.body);
  const [, who, token] = /<p>(\S+) (\S+)<\/p>/.exec(res.body) ?? [];
  assert.equal(who, 'anna');
  const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  const page = await app.inject({ method: 'GET', url: '/katalog/ding.html', headers: { cookie } });
  assert.match(page.body, /<p>anna /);
  assert.equal(
    token,
    /<p>\S+ (\S+)<\/p>/.exec(page.body)?.[1],
    'the token the next page of the session shows',
  );
});

test('log out clears the cookie; wrong password 401 without a Basic challenge', async () => {
  const app = await securityApp();
  const { cookie, token } = await logIn(app);
  const out = await app.inject({
    method: 'POST',
    url: '/katalog/anmeldung',
    headers: { ...FORM, cookie },
    payload: `_method=DELETE&_csrf=${token}`,
  });
  assert.equal(out.statusCode, 204);
  assert.match(String(out.headers['set-cookie']), /^shelfmark_session=; Max-Age=0; Path=\/katalog/);
  const wrong = await app.inject({
    method: 'POST',
    url: '/katalog/anmeldung.json',
    headers: FORM,
    payload: 'username=anna&password=falsch',
  });
  assert.equal(wrong.statusCode, 401);
  assert.equal(wrong.headers['www-authenticate'], undefined);
  assert.equal(wrong.headers['set-cookie'], undefined);
  assert.equal(wrong.json().code, 'SHELFMARK_UNAUTHENTICATED');
});

test('failed log-ins are rate-limited per account and address: 429 with Retry-After', async () => {
  const app = await securityApp();
  const attempt = (password: string, ip = '192.0.2.1') =>
    app.inject({
      method: 'POST',
      url: '/katalog/anmeldung.json',
      headers: FORM,
      remoteAddress: ip,
      payload: `username=ben&password=${password}`,
    });
  for (let i = 0; i < 3; i++) assert.equal((await attempt('nein')).statusCode, 401);
  const blocked = await attempt('ben');
  assert.equal(blocked.statusCode, 429, 'even the right password is refused while blocked');
  assert.ok(Number(blocked.headers['retry-after']) >= 1);
  assert.equal((await attempt('ben', '192.0.2.2')).statusCode, 200, 'another address is not blocked');
});

test('log-in is guarded by the origin check only', async () => {
  const app = await securityApp();
  const cross = await app.inject({
    method: 'POST',
    url: '/katalog/anmeldung',
    headers: { ...FORM, origin: 'https://evil.example' },
    payload: 'username=anna&password=anna',
  });
  assert.equal(cross.statusCode, 403);
  assert.equal(cross.headers['set-cookie'], undefined);
});

test('CSRF: a cookie-authenticated POST needs this session’s token and a same-origin request', async () => {
  const app = await securityApp();
  const anna = await logIn(app, 'anna');
  const ben = await logIn(app, 'ben');
  const post = (headers: Record<string, string>, payload: string) =>
    app.inject({
      method: 'POST',
      url: '/katalog/ding',
      headers: { ...FORM, cookie: anna.cookie, ...headers },
      payload,
    });
  assert.equal((await post({}, 'x=1')).statusCode, 403, 'no token');
  assert.equal((await post({}, `_csrf=${ben.token}`)).statusCode, 403, "another session's token");
  assert.equal(
    (await post({ 'sec-fetch-site': 'cross-site' }, `_csrf=${anna.token}`)).statusCode,
    403,
    'cross-site',
  );
  const ok = await post({ 'sec-fetch-site': 'same-origin' }, `_csrf=${anna.token}`);
  assert.equal(ok.statusCode, 200);
  assert.match(ok.body, /<p>anna /);
  assert.equal((await post({ 'x-csrf-token': anna.token }, 'x=1')).statusCode, 200, 'header token');
  assert.equal(
    (await post({}, `_method=DELETE&_csrf=${ben.token}`)).statusCode,
    403,
    'override checked as POST',
  );
  assert.equal(state.name, 'eins');

  const api = await app.inject({
    method: 'POST',
    url: '/katalog/ding.json',
    headers: { 'content-type': 'application/json', authorization: basic('anna', 'anna') },
    payload: '{}',
  });
  assert.equal(api.statusCode, 200, 'Basic needs no token');
  assert.equal(loggedUsers.at(-1), 'anna');
});

test('GET/HEAD with a valid, expired or tampered cookie: a page, never an error, never Set-Cookie', async () => {
  let clock = Date.now();
  const app = await securityApp({}, () => clock);
  const { cookie } = await logIn(app);
  const expired = createSessionCodec({ secrets: [SECRET], ttlSeconds: 1 }).issue(7, clock - 10_000).value;
  const [payload, mac] = cookie.split('=')[1]!.split('.');
  const tampered = `${Buffer.from('{"u":8,"e":9999999999,"s":"aaaaaaaaaaaaaaaaaaaaaa"}').toString('base64url')}.${mac}`;
  const cases: [string, string, RegExp][] = [
    ['valid', cookie, /<p>anna /],
    ['expired', `shelfmark_session=${expired}`, /<p>anonym -<\/p>/],
    ['tampered', `shelfmark_session=${tampered}`, /<p>anonym -<\/p>/],
    ['garbage', 'shelfmark_session=%%%; other=1', /<p>anonym -<\/p>/],
    ['payload only', `shelfmark_session=${payload}`, /<p>anonym -<\/p>/],
  ];
  for (const [name, value, body] of cases) {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/katalog/ding', headers: { cookie: value } });
      assert.equal(res.statusCode, 200, `${name} ${method}`);
      assert.equal(res.headers['set-cookie'], undefined, `${name} ${method}`);
      if (method === 'GET') assert.match(res.body, body, name);
    }
  }
  clock += 9 * 60 * 60 * 1000;
  const later = await app.inject({ method: 'GET', url: '/katalog/ding', headers: { cookie } });
  assert.match(later.body, /<p>anonym -<\/p>/, 'the session expired after 8 hours');
});

test('If-Match: any variant’s current ETag passes; stale → 412; * on a missing resource → 412', async () => {
  const app = await securityApp();
  const etags = [];
  for (const [suffix, lang] of [
    ['html', 'de'],
    ['html', 'en'],
    ['xml', 'de'],
    ['json', 'de'],
  ] as const) {
    const res = await app.inject({
      method: 'GET',
      url: `/katalog/ding.${suffix}`,
      headers: { 'accept-language': lang },
    });
    etags.push(String(res.headers.etag));
  }
  assert.equal(new Set(etags).size, 4);
  const put = (headers: Record<string, string>) =>
    app.inject({
      method: 'PUT',
      url: '/katalog/ding.json',
      headers: { 'content-type': 'application/json', ...headers },
      payload: '{}',
    });
  const stale = await put({ 'if-match': '"not-the-etag"' });
  assert.equal(stale.statusCode, 412);
  assert.equal(stale.json().code, 'SHELFMARK_PRECONDITION_FAILED');
  assert.equal(state.name, 'eins');
  assert.equal((await put({ 'if-match': `W/${etags[3]}` })).statusCode, 412, 'weak tags never match');
  for (const tag of etags) {
    state.name = 'eins';
    assert.equal((await put({ 'if-match': `"x", ${tag}` })).statusCode, 200, tag);
  }
  state.name = null;
  assert.equal((await put({ 'if-match': '*' })).statusCode, 412);
  assert.equal((await put({})).statusCode, 200, 'creating needs no precondition');
});

test('a form’s _version: current passes, stale → 412', async () => {
  const app = await securityApp();
  const form = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/katalog/ding',
      headers: { ...FORM, authorization: basic('ben', 'ben') },
      payload,
    });
  const etag = String((await app.inject({ method: 'GET', url: '/katalog/ding.json' })).headers.etag);
  const version = etag.slice(1, -1);
  const stale = await form('_method=PUT&_version=abc');
  assert.equal(stale.statusCode, 412);
  assert.equal(state.name, 'eins');
  assert.equal((await form(`_method=PUT&_version=${version}`)).statusCode, 200);
  assert.equal(state.name, 'changed');
  assert.equal((await form(`_method=DELETE&_version=${version}`)).statusCode, 412, 'the version moved on');
});

test('requirePreconditions: PUT/DELETE without If-Match or _version → 428', async () => {
  const app = await securityApp({ requirePreconditions: true });
  const res = await app.inject({
    method: 'DELETE',
    url: '/katalog/ding',
    headers: { authorization: basic('ben', 'ben') },
  });
  assert.equal(res.statusCode, 428);
  assert.equal(state.name, 'eins');
  const etag = String((await app.inject({ method: 'GET', url: '/katalog/ding.xml' })).headers.etag);
  const ok = await app.inject({ method: 'DELETE', url: '/katalog/ding', headers: { 'if-match': etag } });
  assert.equal(ok.statusCode, 204);
  assert.equal(state.name, null);
  const relaxed = await securityApp();
  state.name = 'eins';
  assert.equal((await relaxed.inject({ method: 'DELETE', url: '/katalog/ding' })).statusCode, 204);
});
