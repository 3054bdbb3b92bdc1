// The pieces wired the way createResourceApp should wire them (see the module report).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { registerBodyParsers } from '../body/index.ts';
import { createCsrfGuard } from '../csrf/index.ts';
import { createSessionCodec, createSessionCookies } from '../session/index.ts';
import { createAuthenticator } from './authenticator.ts';
import { createSecurity, registerSecurityHooks } from './hooks.ts';

const SECRETS = ['k'.repeat(40)];
const ORIGIN = 'https://library.example';

async function app() {
  const codec = createSessionCodec({ secrets: SECRETS });
  const cookies = createSessionCookies({ codec, baseUrl: ORIGIN });
  const options = {
    authenticator: createAuthenticator({
      findUser: async (n: string) =>
        n === 'alice' ? { id: 1, username: 'alice', role: 'staff' as const, passwordHash: 'pw' } : null,
      findUserById: async (id: number) =>
        id === 1 ? { id: 1, username: 'alice', role: 'staff' as const, passwordHash: 'pw' } : null,
      verifyPassword: async (pw: string, hash: string) => pw === hash,
      sessions: codec,
    }),
    cookies,
    csrf: createCsrfGuard({ secrets: SECRETS, origins: [ORIGIN] }),
    isLogin: (request: { method: string; url: string }) =>
      request.method === 'POST' && request.url === '/sitzung',
  };
  const security = createSecurity(options);
  const server = Fastify();
  await server.register(fastifyCookie);
  registerBodyParsers(server);
  registerSecurityHooks(server, security, options);
  server.setErrorHandler((error: Error & { status?: number }, _request, reply) =>
    reply.code(error.status ?? 500).send({ error: error.message }),
  );
  server.post('/sitzung', async (request, reply) => {
    const { username, password } = request.body as Record<string, string>;
    return { ok: (await security.login(request, reply, username ?? '', password ?? '')).ok };
  });
  server.get('/form', async (request) => ({
    token: await security.csrfToken(request),
    user: (await security.principal(request))?.username ?? null,
  }));
  server.post('/werke', async (request) => ({ user: (await security.principal(request))?.username ?? null }));
  server.addHook('onResponse', async (request) => {
    logged.push(security.logUser(request.raw) ?? '-');
  });
  return server;
}
const logged: string[] = [];

test('log in, fetch a form token, post with it', async () => {
  const server = await app();
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const crossLogin = await server.inject({
    method: 'POST',
    url: '/sitzung',
    headers: { ...form, origin: 'https://evil.example' },
    payload: 'username=alice&password=pw',
  });
  assert.equal(crossLogin.statusCode, 403, 'login CSRF is refused by the origin check');
  const login = await server.inject({
    method: 'POST',
    url: '/sitzung',
    headers: { ...form, origin: ORIGIN },
    payload: 'username=alice&password=pw',
  });
  assert.deepEqual(login.json(), { ok: true });
  const cookie = String(login.headers['set-cookie']).split(';')[0] as string;

  const page = await server.inject({ method: 'GET', url: '/form', headers: { cookie } });
  const { token, user } = page.json() as { token: string; user: string };
  assert.equal(user, 'alice');
  const anonymousPage = await server.inject({ method: 'GET', url: '/form' });
  assert.deepEqual(anonymousPage.json(), { token: null, user: null });

  const post = (headers: Record<string, string>, payload: string) =>
    server.inject({ method: 'POST', url: '/werke', headers: { ...form, cookie, ...headers }, payload });
  assert.equal((await post({ 'sec-fetch-site': 'same-origin' }, `_csrf=${token}`)).statusCode, 200);
  assert.equal((await post({ 'sec-fetch-site': 'same-origin' }, 'titel=x')).statusCode, 403, 'no token');
  assert.equal(
    (await post({ 'sec-fetch-site': 'cross-site' }, `_csrf=${token}`)).statusCode,
    403,
    'cross-site',
  );
  assert.equal((await post({}, `_csrf=${token}`)).statusCode, 403, 'no origin evidence');

  const api = await server.inject({
    method: 'POST',
    url: '/werke',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from('alice:pw').toString('base64')}`,
    },
    payload: '{}',
  });
  assert.deepEqual(api.json(), { user: 'alice' }, 'Basic needs no token');
  const wrong = await server.inject({
    method: 'GET',
    url: '/form',
    headers: { authorization: 'Basic YWxpY2U6d3Jvbmc=' },
  });
  assert.equal(wrong.statusCode, 401);
  assert.equal(logged.at(-1), 'alice', '%u shows the name of a failed Basic attempt');
  assert.equal(logged[0], '-', 'anonymous requests log -');
});
