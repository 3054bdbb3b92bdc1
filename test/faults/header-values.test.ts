// Fault: a response header value Node refuses (ERR_INVALID_CHAR) or would send as raw Latin-1
// bytes. URLs going into headers are percent-encoded; any other bad value becomes a 500 problem
// in the negotiated format, never Fastify's default JSON body with Node's message in it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { ResourceDefinition, View } from '../../src/http/resource/types.ts';
import { html, xml } from '../../src/http/representation/markup.ts';
import { fakeApp } from '../kit/http/fake-app.ts';

const BASE = 'https://library.example/katalog';

/** Redirects (303) or creates (201) at the path given in `?to=`. */
const jump: ResourceDefinition = {
  name: 'jump',
  path: '/sprung',
  methods: {
    GET: async (ctx) => ({ type: 'redirect', status: 303, path: ctx.query.get('to') ?? '/' }),
  },
};

async function app(reported: unknown[] = []) {
  return fakeApp({
    resources: [jump],
    reportError: (error) => reported.push(error),
    configure(server) {
      // Stands in for any code that puts an unchecked value into a header.
      server.get('/static/kaputt', (request, reply) =>
        reply.header('X-Broken', String(request.query && (request.query as { v?: string }).v)).send('x'),
      );
    },
  });
}

test('a redirect to a path outside Latin-1 or ASCII goes out percent-encoded', async () => {
  const server = await app();
  const cases: [string, string][] = [
    ['/€', `${BASE}/%E2%82%AC`],
    ['/ü', `${BASE}/%C3%BC`],
    ['/a b"<c>', `${BASE}/a%20b%22%3Cc%3E`],
    ['/schon%20kodiert', `${BASE}/schon%20kodiert`],
  ];
  for (const [to, location] of cases) {
    const res = await server.inject({ url: `/katalog/sprung?to=${encodeURIComponent(to)}` });
    assert.equal(res.statusCode, 303, to);
    assert.equal(res.statusMessage, 'See Other', to);
    assert.equal(res.headers.location, location, to);
    assert.ok(/^[\x21-\x7e]+$/.test(String(res.headers.location)), to);
  }
});

test('a header value Node refuses becomes a 500 problem in the negotiated format', async () => {
  const reported: unknown[] = [];
  const server = await app(reported);
  const bad = encodeURIComponent('a\u0000b€');
  const json = await server.inject({
    url: `/katalog/static/kaputt?v=${bad}`,
    headers: { accept: 'application/json' },
  });
  assert.equal(json.statusCode, 500);
  assert.equal(json.statusMessage, 'Internal Server Error');
  assert.equal(json.headers['x-broken'], undefined);
  assert.doesNotMatch(json.body, /ERR_INVALID_CHAR|Invalid character|statusCode/);
  assert.equal(reported.length, 1, 'reported once, like any unexpected error');
  const xml = await server.inject({
    url: `/katalog/static/kaputt?v=${bad}`,
    headers: { accept: 'application/xml' },
  });
  assert.equal(xml.statusCode, 500);
  assert.doesNotMatch(xml.body, /ERR_INVALID_CHAR|Invalid character|statusCode/);
  // With displayErrors the problem body says what happened, in the negotiated format.
  const shown = await fakeApp({
    displayErrors: true,
    configure(s) {
      s.get('/static/kaputt', (_r, reply) => reply.header('X-Broken', 'a\nb').send('x'));
    },
  });
  const detailed = await shown.inject({
    url: '/katalog/static/kaputt',
    headers: { accept: 'application/xml' },
  });
  assert.equal(detailed.statusCode, 500);
  assert.match(String(detailed.headers['content-type']), /^application\/problem\+xml/);
  assert.match(detailed.body, /<code>SHELFMARK_INTERNAL[A-Z_]*<\/code>/);
  assert.match(detailed.body, /InvalidHeaderError/);
});

test('a compressed representation refused for a header value becomes a problem coded as it says', async () => {
  const text = 'Faust. Eine Tragödie. '.repeat(100); // well above the size worth compressing
  const view: View<string> = {
    html: (t) => html`<p>${t}</p>`,
    xml: (t) => xml`<t>${t}</t>`,
    json: (t) => ({ t }),
  };
  const long: ResourceDefinition = {
    name: 'long',
    path: '/lang',
    methods: {
      GET: async () => ({
        type: 'representation',
        representation: {
          model: text,
          view,
          canonicalPath: '/lang',
        },
      }),
    },
  };
  const server = await fakeApp({
    resources: [long],
    displayErrors: true,
    configure(s) {
      // Stands in for any hook that puts an unchecked value into a header before the handler.
      s.addHook('onRequest', (request, reply, done) => {
        if (request.url.startsWith('/lang')) reply.header('X-Broken', 'a\nb');
        done();
      });
    },
  });
  for (const accept of ['application/json', 'application/xml', 'text/html']) {
    const res = await server.inject({ url: '/katalog/lang', headers: { accept, 'accept-encoding': 'gzip' } });
    assert.equal(res.statusCode, 500, accept);
    // The problem replaces the gzip body the representation had: whatever coding the answer
    // names is the problem's own.
    const coding = res.headers['content-encoding'];
    const body = coding === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body;
    assert.ok(coding === undefined || coding === 'gzip', `${accept}: ${String(coding)}`);
    assert.match(body, /InvalidHeaderError/, accept);
    assert.doesNotMatch(body, /Tragödie/, accept);
  }
});
