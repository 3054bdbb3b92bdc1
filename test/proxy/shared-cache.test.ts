// Issue 11 item 2: Shelfmark behind a caching nginx (proxy_cache, started by this test). The
// nginx configuration is the naive one that caused the report: cache every 200 for 10 minutes
// unless the response says otherwise, keyed by URL only. The server's Cache-Control and Vary
// (ADR 0051) must keep every viewer's answer their own: staff never get the logged-out page or
// `{"angemeldet":false}`, and nobody gets staff's page. The stylesheet (public, max-age) shows
// that the cache really stores what it may; the pages revalidate (ETag → 304 through nginx).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { skipUnless } from '../support/requirements.ts';

const LOGGED_IN = /angemeldet als <a href="\/sitzung">personal<\/a>/;

describe('behind a caching nginx', skipUnless('nginx'), () => {
  let server: Catalogue;
  let nginx: Nginx;
  let cookie: string;
  const viaCache = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${nginx.origin}${path}`, { headers, redirect: 'manual' });

  before(async () => {
    server = await startCatalogue();
    nginx = await startNginx({
      http: 'proxy_cache_path $prefix/cache keys_zone=shelfmark:1m;',
      server: `location / {
        proxy_pass ${server.origin};
        proxy_cache shelfmark;
        proxy_cache_valid 200 301 10m;
        add_header X-Cache-Status $upstream_cache_status always;
      }`,
    });
    const login = await fetch(`${server.origin}/sitzung`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin, accept: 'application/json' },
      body: JSON.stringify({ username: 'personal', password: 'personal' }),
    });
    assert.equal(login.status, 200, await login.text());
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assert.match(cookie, /^shelfmark_session=/);
  });
  after(async () => {
    await nginx?.stop();
    await server?.stop();
  });

  test('the cache is live: the stylesheet is stored and served from it', async () => {
    await viaCache('/static/shelfmark.css');
    const second = await viaCache('/static/shelfmark.css');
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-cache-status'), 'HIT');
  });

  test('staff never get the logged-out page, nor anonymous readers staff’s', async () => {
    for (const path of ['/', '/werke/faust', '/personen/goethe']) {
      const anonymous = await viaCache(path);
      assert.equal(anonymous.status, 200);
      assert.equal(anonymous.headers.get('cache-control'), 'no-cache', path);
      assert.match(anonymous.headers.get('vary') ?? '', /Cookie, Authorization/);
      assert.doesNotMatch(await anonymous.text(), LOGGED_IN);
      await viaCache(path);
      const staffCredentials: Record<string, string>[] = [{ cookie }, { authorization: STAFF_AUTHORIZATION }];
      for (const credentials of staffCredentials) {
        const staff = await viaCache(path, credentials);
        assert.equal(staff.status, 200);
        assert.notEqual(staff.headers.get('x-cache-status'), 'HIT', `${path}: staff's answer is fresh`);
        assert.equal(staff.headers.get('cache-control'), 'private, no-cache');
        assert.match(await staff.text(), LOGGED_IN, `${path} shows staff as logged in`);
      }
      const anonymousAgain = await viaCache(path);
      assert.doesNotMatch(await anonymousAgain.text(), LOGGED_IN, `${path}: staff's page was not stored`);
    }
  });

  test('the session resource in JSON: {"angemeldet":false} is never served to staff', async () => {
    for (let i = 0; i < 2; i++)
      assert.deepEqual(await (await viaCache('/sitzung.json')).json(), { angemeldet: false });
    const staff = await viaCache('/sitzung.json', { cookie });
    assert.equal(((await staff.json()) as { angemeldet: boolean }).angemeldet, true);
  });

  test('public representations revalidate: never a cache HIT, and an ETag that gives 304', async () => {
    for (let i = 0; i < 2; i++) {
      const page = await viaCache('/werke/faust.json');
      assert.equal(page.status, 200);
      assert.notEqual(page.headers.get('x-cache-status'), 'HIT', 'no-cache: nginx does not store it');
    }
    const first = await viaCache('/werke/faust.json');
    const etag = first.headers.get('etag');
    assert.ok(etag, 'an ETag');
    // nginx asks its upstream for whole responses while proxy_cache is on, so the 304 is the
    // server's own answer to a browser's revalidation (or to a cache that revalidates).
    const again = await fetch(`${server.origin}/werke/faust.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('cache-control'), 'no-cache');
  });

  test('errors are not stored', async () => {
    const missing = await viaCache('/personen/niemand-hier');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), 'no-store');
  });
});
