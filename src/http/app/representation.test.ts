import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeApp } from '../../../test/kit/http/fake-app.ts';

const app = await fakeApp();
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

test('a negotiated response: Vary, Content-Location, ETag, Last-Modified, nosniff', async () => {
  const r = await get('/katalog/personen/goethe', { accept: 'application/json' });
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(r.headers.vary, 'Accept, Cookie, Authorization');
  assert.equal(r.headers['content-location'], '/katalog/personen/goethe.json');
  assert.equal(r.headers['last-modified'], 'Wed, 01 May 2024 10:00:00 GMT');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.match(String(r.headers.etag), /^"[^"]+"$/);
  assert.deepEqual(r.json(), { name: 'Goethe', url: 'https://library.example/katalog/personen/goethe' });
  assert.equal(r.headers.link, '<https://library.example/katalog/schema/person.json>; rel="describedby"');
  assert.equal(r.headers['set-cookie'], undefined);
});

test('no Accept header → HTML, still Vary: Accept, plus Accept-Language; root-relative links', async () => {
  const r = await get('/katalog/personen/goethe');
  assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(r.headers.vary, 'Accept, Accept-Language, Cookie, Authorization');
  assert.equal(r.headers['content-location'], '/katalog/personen/goethe.html');
  assert.match(r.body, /href="\/katalog\/personen\/goethe"/);
});

test('suffix URLs are not negotiated: no Vary: Accept, no Content-Location', async () => {
  const r = await get('/katalog/personen/goethe.xml', { accept: 'application/json' });
  assert.equal(r.headers['content-type'], 'application/xml; charset=utf-8');
  assert.equal(r.headers.vary, 'Cookie, Authorization');
  assert.equal(r.headers['content-location'], undefined);
  assert.match(r.body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<person ref="https:\/\/library.example/);
  const h = await get('/katalog/personen/goethe.html', { 'accept-language': 'en' });
  assert.equal(h.headers.vary, 'Accept-Language, Cookie, Authorization');
  assert.match(h.body, /Goethe \(en\)/);
});

test('?format= chooses too; an unknown value is 404', async () => {
  const r = await get('/katalog/personen/goethe?format=json', { accept: 'text/html' });
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(r.headers.link, '<https://library.example/katalog/schema/person.json>; rel="describedby"');
  assert.equal((await get('/katalog/personen/goethe?format=pdf')).statusCode, 404);
});

test('ETags differ per format and per language', async () => {
  const tags = await Promise.all(
    ['/katalog/personen/goethe.json', '/katalog/personen/goethe.xml', '/katalog/personen/goethe.html'].map(
      async (url) => (await get(url)).headers.etag,
    ),
  );
  tags.push((await get('/katalog/personen/goethe.html', { 'accept-language': 'en' })).headers.etag);
  assert.equal(new Set(tags).size, 4);
});

test('script-style URLs answer the same representation with rel=canonical', async () => {
  const script = await get('/katalog/person?slug=goethe', { accept: 'application/json' });
  const readable = await get('/katalog/personen/goethe', { accept: 'application/json' });
  assert.equal(script.body, readable.body);
  assert.match(
    String(script.headers.link),
    /^<https:\/\/library.example\/katalog\/personen\/goethe>; rel="canonical"/,
  );
  assert.equal(script.headers['content-location'], '/katalog/personen/goethe.json');
  assert.match(String((await get('/katalog/person?id=1')).headers.link), /rel="canonical"/);
});

test('a collection: query in Content-Location, next link absolute, canonical ignores parameter order', async () => {
  const r = await get('/katalog/personen?q=faust', { accept: 'application/xml' });
  assert.equal(r.headers['content-location'], '/katalog/personen.xml?q=faust');
  assert.equal(r.headers.link, '<https://library.example/katalog/personen?nach=goethe>; rel="next"');
  const root = await get('/katalog/', { accept: 'application/json' });
  assert.equal(root.headers['content-location'], '/katalog/index.json');
  assert.equal((await get('/katalog')).statusCode, 200);
  assert.equal((await get('/katalog/index.json')).headers['content-type'], 'application/json; charset=utf-8');
});

test('304 for a matching If-None-Match or a fresh If-Modified-Since, keeping validators and Vary', async () => {
  const first = await get('/katalog/personen/goethe', { accept: 'application/json' });
  const etag = String(first.headers.etag);
  const cases: Record<string, string>[] = [
    { 'if-none-match': etag },
    { 'if-none-match': `W/${etag}` },
    { 'if-none-match': '*' },
    { 'if-modified-since': 'Wed, 01 May 2024 10:00:00 GMT' },
  ];
  for (const headers of cases) {
    const r = await get('/katalog/personen/goethe', { accept: 'application/json', ...headers });
    assert.equal(r.statusCode, 304, JSON.stringify(headers));
    assert.equal(r.body, '');
    assert.equal(r.headers.etag, etag);
    assert.equal(r.headers.vary, 'Accept, Cookie, Authorization');
    assert.equal(r.headers['content-location'], '/katalog/personen/goethe.json');
  }
  assert.equal((await get('/katalog/personen/goethe', { 'if-none-match': etag })).statusCode, 200);
  assert.equal(
    (await get('/katalog/personen/goethe', { 'if-modified-since': 'Tue, 30 Apr 2024 10:00:00 GMT' }))
      .statusCode,
    200,
  );
});

test('HEAD is GET without a body, with the same headers', async () => {
  const g = await get('/katalog/personen/goethe.xml');
  const h = await app.inject({ method: 'HEAD', url: '/katalog/personen/goethe.xml' });
  assert.equal(h.statusCode, 200);
  assert.equal(h.body, '');
  for (const name of ['content-length', 'content-type', 'etag', 'last-modified', 'link'])
    assert.equal(h.headers[name], g.headers[name], name);
});

test('trusted proxies may change scheme and host of absolute links; others may not', async () => {
  const headers = {
    accept: 'application/json',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': 'intern.example',
  };
  const trusted = await get('/katalog/personen/goethe', headers);
  assert.equal(trusted.json().url, 'http://intern.example/katalog/personen/goethe');
  const untrusted = await (
    await fakeApp({ trustProxy: ['10.0.0.0/8'] })
  ).inject({ url: '/katalog/personen/goethe', headers });
  assert.equal(untrusted.json().url, 'https://library.example/katalog/personen/goethe');
});

test('outside the base path → 404; without a base path the root works', async () => {
  assert.equal((await get('/personen/goethe')).statusCode, 404);
  assert.equal((await get('/katalogue/personen/goethe')).statusCode, 404);
  const plain = await fakeApp({ baseUrl: 'http://localhost:3000' });
  const r = await plain.inject({ url: '/personen/goethe.json' });
  assert.equal(r.json().url, 'http://localhost:3000/personen/goethe');
});

test('outcomes: 201 + Location, 301 keeps the suffix, 204', async () => {
  const created = await app.inject({
    method: 'POST',
    url: '/katalog/personen',
    headers: { accept: 'application/json' },
  });
  assert.equal(created.statusCode, 201);
  assert.equal(created.headers.location, 'https://library.example/katalog/personen/neu');
  const moved = await get('/katalog/personen/goethe-alt.json');
  assert.equal(moved.statusCode, 301);
  assert.equal(moved.headers.location, 'https://library.example/katalog/personen/goethe.json');
  assert.equal(
    (await get('/katalog/personen/goethe-alt')).headers.location,
    'https://library.example/katalog/personen/goethe',
  );
  const deleted = await app.inject({ method: 'DELETE', url: '/katalog/personen/goethe' });
  assert.equal(deleted.statusCode, 204);
  assert.equal(deleted.body, '');
});

test('passthrough routes are reached unchanged', async () => {
  const r = await get('/katalog/static/style.css');
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
});
