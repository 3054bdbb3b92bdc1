import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { fakeApp } from '../../../test/kit/http/fake-app.ts';
import { HttpError } from '../errors/http-error.ts';

const app = await fakeApp();
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

test('OPTIONS answers 204 with Allow; an unknown method is 405 with Allow, in the negotiated format', async () => {
  const o = await app.inject({ method: 'OPTIONS', url: '/katalog/personen/goethe' });
  assert.equal(o.statusCode, 204);
  assert.equal(o.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
  const r = await app.inject({
    method: 'POST',
    url: '/katalog/personen/goethe',
    headers: { accept: 'application/xml' },
  });
  assert.equal(r.statusCode, 405);
  assert.equal(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
  assert.equal(r.headers['content-type'], 'application/problem+xml; charset=utf-8');
  assert.match(
    r.body,
    /<problem xmlns="urn:ietf:rfc:7807">[\s\S]*<code>SHELFMARK_METHOD_NOT_ALLOWED<\/code>/,
  );
  const p = await app.inject({ method: 'PATCH', url: '/katalog/personen.json' });
  assert.equal(p.statusCode, 405);
  assert.equal(p.headers.allow, 'GET, HEAD, POST, OPTIONS');
  assert.equal(p.headers['content-type'], 'application/problem+json; charset=utf-8');
});

test('406 lists the available representations (absolute in JSON, root-relative in HTML), with Vary: Accept', async () => {
  const r = await get('/katalog/personen/goethe?x=1', { accept: 'image/png, application/problem+json' });
  assert.equal(r.statusCode, 406);
  // Accept-Encoding too: the problem is long enough to be compressed for a client that asks.
  assert.equal(r.headers.vary, 'Accept, Accept-Encoding, Cookie, Authorization');
  assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.deepEqual(
    r.json().available.map((a: { url: string }) => a.url),
    ['html', 'xml', 'json'].map((f) => `https://library.example/katalog/personen/goethe.${f}?x=1`),
  );
  const h = await get('/katalog/personen/goethe', { accept: 'text/html;q=0' });
  assert.equal(h.statusCode, 406);
  // The HTML body links them root-relative, like every HTML link (docs/representations.md).
  assert.match(h.body, /href="\/katalog\/personen\/goethe.json"/);
  assert.equal((await get('/katalog/personen/goethe', { accept: 'garbage' })).statusCode, 406);
});

test('404 and 410 as problem details; the suffix chooses the error format too', async () => {
  const nf = await get('/katalog/personen/nobody.json');
  assert.equal(nf.statusCode, 404);
  assert.equal(nf.headers.vary, 'Cookie, Authorization');
  assert.equal(nf.headers['cache-control'], 'no-store');
  assert.deepEqual(nf.json(), {
    type: 'about:blank',
    title: 'Not Found',
    status: 404,
    detail: 'No person nobody.',
    instance: 'https://library.example/katalog/personen/nobody.json',
    code: 'SHELFMARK_NOT_FOUND',
  });
  assert.equal(nf.headers.link, '<https://library.example/katalog/schema/problem.json>; rel="describedby"');
  const gone = await get('/katalog/personen/schiller', { accept: 'application/xml' });
  assert.equal(gone.statusCode, 410);
  assert.match(gone.body, /<code>SHELFMARK_GONE<\/code>/);
  const html = await get('/katalog/nirgends', { 'accept-language': 'en' });
  assert.equal(html.statusCode, 404);
  assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(html.headers.vary, 'Accept, Accept-Language, Cookie, Authorization');
  assert.match(html.body, /<h1>Not Found<\/h1>/);
});

test('the application error page renders HTML errors', async () => {
  const custom = await fakeApp({
    errorPage: (problem, ctx) => ({ text: `<p>${problem.status} ${ctx.lang}</p>` }) as never,
  });
  assert.equal((await custom.inject({ url: '/katalog/nirgends' })).body, '<p>404 de</p>');
});

test('500 without displayErrors: empty body, nothing leaked, reported once', async () => {
  const reported: unknown[] = [];
  const quiet = await fakeApp({ reportError: (error) => reported.push(error) });
  for (const accept of ['application/json', 'application/xml', 'text/html']) {
    const r = await quiet.inject({ url: '/katalog/personen/boom', headers: { accept } });
    assert.equal(r.statusCode, 500);
    assert.equal(r.body, '');
    assert.equal(r.headers['content-type'], undefined);
    assert.doesNotMatch(JSON.stringify(r.headers), /secret/);
  }
  assert.equal(reported.length, 3);
  assert.ok(reported[0] instanceof TypeError);
});

test('500 with displayErrors: class, message, file, line, stack and source', async () => {
  const loud = await fakeApp({ displayErrors: true });
  const r = await loud.inject({ url: '/katalog/personen/boom.json' });
  assert.equal(r.statusCode, 500);
  const e = r.json().exception;
  assert.equal(e.class, 'TypeError');
  assert.equal(e.message, 'secret database password leaked here');
  assert.match(e.file, /test\/kit\/http\/fake-app\.ts$/);
  assert.ok(e.line > 0);
  assert.match(e.source, /^>.*throw new TypeError/m);
  const h = await loud.inject({ url: '/katalog/personen/boom.html' });
  assert.match(h.body, /TypeError: secret database password leaked here/);
});

test('422 carries field errors; HttpError headers are sent', async () => {
  const r = await app.inject({ method: 'PUT', url: '/katalog/personen/invalid.json' });
  assert.equal(r.statusCode, 422);
  assert.deepEqual(r.json().errors, [{ field: 'name', detail: 'required' }]);
  const limited = await fakeApp({
    configure: (a) =>
      a.get('/static/busy', async () => {
        throw new HttpError('SHELFMARK_TOO_MANY_REQUESTS', { headers: { 'Retry-After': '60' } });
      }),
  });
  const busy = await limited.inject({ url: '/katalog/static/busy', headers: { accept: 'application/json' } });
  assert.equal(busy.statusCode, 429);
  assert.equal(busy.headers['retry-after'], '60');
});

test('HEAD of an error has the length but no body', async () => {
  const g = await get('/katalog/nirgends.json');
  const h = await app.inject({ method: 'HEAD', url: '/katalog/nirgends.json' });
  assert.equal(h.statusCode, 404);
  assert.equal(h.body, '');
  assert.equal(h.headers['content-length'], g.headers['content-length']);
});

test('GET never sets a cookie, even if something tried to', async () => {
  const sneaky = await fakeApp({
    configure: (a) => a.get('/static/c', (_q, reply) => reply.header('Set-Cookie', 'a=b').send('x')),
  });
  assert.equal((await sneaky.inject({ url: '/katalog/static/c' })).headers['set-cookie'], undefined);
});

test('OPTIONS * answers Allow; GET * is a bad request', async () => {
  const server = await fakeApp();
  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as { port: number };
  const ask = (method: string) =>
    new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, method, path: '*' }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
      })
        .on('error', reject)
        .end();
    });
  try {
    assert.deepEqual(await ask('OPTIONS'), {
      status: 204,
      allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    });
    assert.equal((await ask('GET')).status, 400);
  } finally {
    await server.close();
  }
});

test('a malformed percent-encoding in a rewritten segment is 400', async () => {
  assert.equal((await get('/katalog/personen/%E0%A4%A.json')).statusCode, 400);
});
