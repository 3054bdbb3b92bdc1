import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { createSessionCodec } from './codec.ts';
import { cookieAttributes, createSessionCookies } from './cookie.ts';

const SECRET = 'a-secret-of-at-least-32-characters!!';

test('cookie attributes follow the base URL', () => {
  assert.deepEqual(cookieAttributes('https://example.org/katalog'), {
    path: '/katalog',
    httpOnly: true,
    sameSite: 'lax',
    secure: true,
  });
  assert.deepEqual(cookieAttributes('http://localhost:3000'), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: false,
  });
});

test('log in sets one signed cookie; anonymous GETs get none', async () => {
  const codec = createSessionCodec({ secrets: [SECRET] });
  const cookies = createSessionCookies({ codec, baseUrl: 'https://example.org/katalog' });
  const app = Fastify();
  await app.register(fastifyCookie);
  app.get('/katalog/werke', async (request) => ({
    user: codec.read(request.cookies[cookies.name], Date.now())?.userId ?? null,
  }));
  app.post('/katalog/sitzung', async (_request, reply) => ({ id: cookies.set(reply, 5, Date.now()).id }));
  app.delete('/katalog/sitzung', async (_request, reply) => {
    cookies.clear(reply);
    return {};
  });

  const anonymous = await app.inject({ method: 'GET', url: '/katalog/werke' });
  assert.equal(anonymous.headers['set-cookie'], undefined);
  assert.deepEqual(anonymous.json(), { user: null });

  const login = await app.inject({ method: 'POST', url: '/katalog/sitzung' });
  const setCookie = String(login.headers['set-cookie']);
  assert.match(
    setCookie,
    /^shelfmark_session=[\w-]+\.[\w-]+; Max-Age=28800; Path=\/katalog; HttpOnly; Secure; SameSite=Lax$/,
  );
  const value = setCookie.split(';')[0] as string;

  const again = await app.inject({ method: 'GET', url: '/katalog/werke', headers: { cookie: value } });
  assert.deepEqual(again.json(), { user: 5 });
  assert.equal(again.headers['set-cookie'], undefined, 'no refresh on GET');

  const tampered = await app.inject({
    method: 'GET',
    url: '/katalog/werke',
    headers: { cookie: value.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x')) },
  });
  assert.equal(tampered.statusCode, 200);
  assert.deepEqual(tampered.json(), { user: null });

  const logout = await app.inject({ method: 'DELETE', url: '/katalog/sitzung', headers: { cookie: value } });
  assert.match(String(logout.headers['set-cookie']), /^shelfmark_session=; .*Path=\/katalog/);
});
