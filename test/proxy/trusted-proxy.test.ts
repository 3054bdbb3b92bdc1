// Issue 11 item 3: Shelfmark behind a TLS-terminating reverse proxy. A real nginx (started by
// this test, on 127.0.0.1) forwards to the real server and sets X-Forwarded-Proto: https and
// X-Forwarded-Host: library.example, as a proxy in front of https://library.example would.
// A browser's form log-in through it carries `Origin: https://library.example` and (older
// browsers) no Sec-Fetch-Site. Trusting 127.0.0.1 (SHELFMARK_TRUST_PROXY), the origin check
// accepts the forwarded origin and the session cookie is `Secure`; trusting nobody, the same
// request is refused (403), so both halves of the test can fail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, type Catalogue } from '../acceptance/catalogue-server.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { skipUnless } from '../support/requirements.ts';

function proxyTo(upstream: string): string {
  return `location / {
      proxy_pass ${upstream};
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Forwarded-Host library.example;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }`;
}

const LOGIN = {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    origin: 'https://library.example',
    accept: 'text/html',
  },
  body: 'username=personal&password=personal&zurueck=%2Fwerke',
  redirect: 'manual',
} as const;

describe('behind a TLS-terminating proxy', skipUnless('nginx'), () => {
  let trusting: Catalogue;
  let distrusting: Catalogue;
  let toTrusting: Nginx;
  let toDistrusting: Nginx;
  before(async () => {
    [trusting, distrusting] = await Promise.all([
      startCatalogue({ trustProxy: '127.0.0.1' }),
      startCatalogue({ trustProxy: '10.9.9.9' }),
    ]);
    toTrusting = await startNginx({ server: proxyTo(trusting.origin) });
    toDistrusting = await startNginx({ server: proxyTo(distrusting.origin) });
  });
  after(async () => {
    await Promise.all([toTrusting?.stop(), toDistrusting?.stop()]);
    await Promise.all([trusting?.stop(), distrusting?.stop()]);
  });

  test('a form log-in through a trusted proxy passes the origin check and gets a Secure cookie', async () => {
    const response = await fetch(`${toTrusting.origin}/sitzung`, LOGIN);
    assert.equal(response.status, 303, await response.text());
    // Root-relative (ADR 0082): the browser stays on the host it used, https://library.example.
    assert.equal(response.headers.get('location'), '/werke');
    const cookie = response.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^shelfmark_session=/);
    assert.match(cookie, /;\s*Secure/i, cookie);
    assert.match(cookie, /;\s*HttpOnly/i);
    // Logging out through the proxy expires the same (Secure) cookie.
    const session = cookie.split(';')[0] ?? '';
    const logout = await fetch(`${toTrusting.origin}/sitzung`, {
      method: 'DELETE',
      headers: { cookie: session, origin: 'https://library.example', accept: 'application/json' },
    });
    assert.equal(logout.status, 403, 'DELETE with a session needs the CSRF token');
  });

  test('a foreign origin is still refused through the trusted proxy', async () => {
    const response = await fetch(`${toTrusting.origin}/sitzung`, {
      ...LOGIN,
      headers: { ...LOGIN.headers, origin: 'https://evil.example' },
    });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('set-cookie'), null);
  });

  test('the same request through a proxy the server does not trust is refused', async () => {
    const response = await fetch(`${toDistrusting.origin}/sitzung`, LOGIN);
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('set-cookie'), null);
  });

  test('straight to the server (http base, no proxy) the cookie is not Secure', async () => {
    const response = await fetch(`${trusting.origin}/sitzung`, {
      ...LOGIN,
      headers: { ...LOGIN.headers, origin: trusting.origin },
    });
    assert.equal(response.status, 303);
    assert.doesNotMatch(response.headers.get('set-cookie') ?? '', /Secure/i);
  });
});
