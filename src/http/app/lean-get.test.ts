// The lean path (ADR 0070): which requests it answers without Fastify, that its answers are the
// full path's byte for byte, and that what it does not answer reaches the full path with the
// handler run once — its outcome or error answered there, logged once.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { listenCounting } from '../../../test/kit/http/listen.ts';
import { RepresentationCache } from '../cache/index.ts';
import { HttpError } from '../errors/http-error.ts';
import { html } from '../representation/markup.ts';
import type { ResourceDefinition, View } from '../resource/types.ts';
import { askWire, type WireAnswer } from '../../../test/kit/http/wire.ts';

const view: View<{ name: string }> = {
  html: (m) => html`<!DOCTYPE html><title>${m.name}</title><p>${m.name}</p>`,
  xml: (m) => html`<thing><name>${m.name}</name></thing>`,
  // The client's address as the handler sees it (Fastify's request.ip on the full path).
  json: (m, ctx) => ({ name: m.name, address: ctx.address, padding: 'x'.repeat(600) }),
};

interface Served {
  readonly calls: { handler: number; fastify: number; reported: number };
  get(path: string, headers?: Record<string, string>, method?: string): Promise<WireAnswer>;
}

/**
 * A real server over `thing` (cacheable), `moved` (redirects), `missing` (throws 404), `broken`
 * (throws) and `plain` (not cacheable). `lean: false` is the same application with every
 * request taking Fastify's lifecycle: the reference the lean answers are held to.
 */
async function serve(t: TestContext, options: { lean: boolean; cache: boolean }): Promise<Served> {
  const calls = { handler: 0, fastify: 0, reported: 0 };
  const thing = (name: string, cacheable: boolean): ResourceDefinition => ({
    name,
    path: `/${name}`,
    cacheable,
    methods: {
      GET() {
        calls.handler += 1;
        const representation = {
          model: { name: 'Goethe & Schiller' },
          view,
          canonicalPath: `/${name}`,
          schema: 'thing',
          links: [{ rel: 'related', path: '/moved' }],
          lastModified: new Date('2026-01-01T00:00:00Z'),
        };
        return Promise.resolve({ type: 'representation', representation });
      },
      PUT: () => Promise.resolve({ type: 'empty', status: 204 }),
    },
  });
  const failing = (name: string, fail: () => never): ResourceDefinition => ({
    name,
    path: `/${name}`,
    cacheable: true,
    methods: {
      GET() {
        calls.handler += 1;
        return Promise.resolve().then(fail);
      },
    },
  });
  const moved: ResourceDefinition = {
    name: 'moved',
    path: '/moved',
    cacheable: true,
    methods: {
      GET() {
        calls.handler += 1;
        return Promise.resolve({ type: 'redirect', status: 301, path: '/thing' });
      },
    },
  };
  const { port, agent } = await listenCounting(
    t,
    {
      baseUrl: 'https://library.example',
      // The clients are on loopback: their X-Forwarded-* are believed, as a proxy's would be.
      trustProxy: ['loopback'],
      resources: [
        thing('thing', true),
        thing('plain', false),
        moved,
        failing('missing', () => {
          throw new HttpError('SHELFMARK_NOT_FOUND');
        }),
        failing('broken', () => {
          throw new Error('the database went away');
        }),
      ],
      rewrites: [],
      displayErrors: false,
      reportError: () => {
        calls.reported += 1;
      },
      ...(options.cache && {
        representationCache: new RepresentationCache({ maxBytes: 1 << 20, version: () => 1 }),
      }),
      leanPath: options.lean,
    },
    () => {
      calls.fastify += 1;
    },
  );
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    askWire(port, path, headers, method, agent);
  return { calls, get };
}

/** Requests the lean path answers: formats, languages, codings, origins, HEAD. */
const ANSWERED: readonly [string, Record<string, string>, string?][] = [
  ['/thing.json', {}],
  ['/thing.xml', {}],
  ['/thing.html', {}],
  ['/thing', {}],
  ['/thing', { accept: 'application/json' }],
  ['/thing', { accept: 'application/xml;q=0.9, text/html;q=0.5' }],
  ['/thing?format=xml', {}],
  ['/thing.html', { 'accept-language': 'en-GB, de;q=0.5' }],
  ['/thing.json', { 'accept-encoding': 'gzip' }],
  ['/thing.html', { 'accept-encoding': 'gzip, br' }],
  ['/thing.json', { origin: 'https://elsewhere.example' }],
  ['/thing.json?extra=1', {}],
  ['/thing.html', { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'proxied.example' }],
  [
    '/thing',
    { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'a.example', accept: 'application/json' },
  ],
  ['/thing.json', {}, 'HEAD'],
  ['/thing.html', { 'accept-encoding': 'br' }, 'HEAD'],
];

for (const cache of [false, true]) {
  test(`the lean path answers without Fastify, byte for byte as the full path (cache ${cache ? 'on' : 'off'})`, async (t) => {
    const lean = await serve(t, { lean: true, cache });
    const full = await serve(t, { lean: false, cache });
    for (const [path, headers, method] of ANSWERED) {
      const label = `${method ?? 'GET'} ${path} ${JSON.stringify(headers)}`;
      const expected = await full.get(path, headers, method);
      assert.equal(expected.status, 200, label);
      assert.deepEqual(await lean.get(path, headers, method), expected, label);
    }
    assert.equal(lean.calls.fastify, 0, 'none of them reached Fastify');
    assert.ok(full.calls.fastify > 0, 'where the reference went through Fastify');
    assert.equal(lean.calls.handler, full.calls.handler, 'the handler ran as often on both paths');
  });
}

/** Requests the lean path passes on untouched: Fastify answers them from the start. */
const PASSED_ON: readonly [string, Record<string, string>, string?][] = [
  ['/plain.json', {}],
  ['/thing.json', { authorization: 'Basic YTpi' }],
  ['/thing.json', { cookie: 'session=x' }],
  ['/thing.json', { 'if-none-match': '"x"' }],
  ['/thing.json', {}, 'OPTIONS'],
  ['/thing.json', {}, 'DELETE'],
  ['/thing', { accept: 'image/png' }],
  ['/thing.txt', {}],
  ['/nowhere', {}],
  ['*', {}, 'OPTIONS'],
];

test('what the lean path may not answer reaches Fastify, with the full path’s answer', async (t) => {
  const lean = await serve(t, { lean: true, cache: false });
  const full = await serve(t, { lean: false, cache: false });
  for (const [path, headers, method] of PASSED_ON) {
    const label = `${method ?? 'GET'} ${path} ${JSON.stringify(headers)}`;
    assert.deepEqual(await lean.get(path, headers, method), await full.get(path, headers, method), label);
  }
  assert.equal(lean.calls.fastify, full.calls.fastify, 'every one went through Fastify');
  assert.equal(lean.calls.handler, full.calls.handler);
});

test('a redirect, a 404 and a failure: answered by the full path, the handler run once, logged once', async (t) => {
  const lean = await serve(t, { lean: true, cache: false });
  const full = await serve(t, { lean: false, cache: false });
  for (const path of ['/moved.json', '/missing.html', '/missing.json', '/broken.json', '/broken.html']) {
    const expected = await full.get(path);
    assert.notEqual(expected.status, 200, path);
    assert.deepEqual(await lean.get(path), expected, path);
  }
  assert.equal(lean.calls.fastify, 5, 'each answered by the full path');
  assert.equal(lean.calls.handler, 5, 'whose handler was not run a second time');
  assert.equal(lean.calls.reported, 2, 'each failure reported once');
  assert.equal(full.calls.reported, 2);
});
