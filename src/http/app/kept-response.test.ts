// Kept responses, the pipeline's early exit (ADR 0071): which requests have a key, that a kept
// answer is what the dispatcher answered, that it never answers stale, and that every stage
// after it (the finishing stage's headers) runs for it. Through inject(), which runs the very
// stages a socket request runs.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test, type TestContext } from 'node:test';
import { requestKeyOf } from './kept-response.ts';
import { createResourceApp } from './create-app.ts';
import { RepresentationCache } from '../cache/index.ts';
import { compileTrust } from '../links/links.ts';
import { html } from '../representation/markup.ts';
import type { ResourceDefinition, View } from '../resource/types.ts';
import { versionFeed } from '../../../test/kit/http/version-feed.ts';

function request(method: string, headers: Record<string, string>, remoteAddress = '192.0.2.1') {
  return { method, headers, socket: { remoteAddress } } as unknown as IncomingMessage;
}
const nobody = compileTrust([]);
const key = (headers: Record<string, string> = {}, method = 'GET') =>
  requestKeyOf(request(method, { host: 'h', ...headers }), '/thing.json', nobody);

test('only an anonymous or Basic, unconditional GET or HEAD without a body has a request key', () => {
  assert.ok(key());
  assert.equal(key({}, 'HEAD'), key(), 'HEAD is answered from the GET it shares a key with');
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
    assert.equal(key({}, method), undefined);
  assert.equal(key({ authorization: 'Bearer abc' }), undefined, 'no other scheme');
  const notKeyed = {
    cookie: 'x=1',
    'if-none-match': '"a"',
    'if-modified-since': 'Sun, 22 Nov 2026 10:00:00 GMT',
    'if-match': '*',
    'if-unmodified-since': 'Sun, 22 Nov 2026 10:00:00 GMT',
    'if-range': '"a"',
    range: 'bytes=0-1',
    'content-length': '0',
    'transfer-encoding': 'chunked',
    expect: '100-continue',
  };
  for (const [name, value] of Object.entries(notKeyed))
    assert.equal(key({ [name]: value }), undefined, `${name}: no key`);
});

test('every field the answer depends on is part of the key', () => {
  const shaping = {
    host: 'other',
    accept: 'application/json',
    'accept-language': 'en',
    'accept-encoding': 'gzip',
    origin: 'https://elsewhere.example',
  };
  const keys = new Set([key()]);
  for (const [name, value] of Object.entries(shaping)) keys.add(key({ [name]: value }));
  assert.equal(keys.size, 1 + Object.keys(shaping).length);
  assert.notEqual(
    requestKeyOf(request('GET', {}), '/a', nobody),
    requestKeyOf(request('GET', {}), '/b', nobody),
  );
  assert.equal(key({ 'user-agent': 'curl' }), key(), 'a field nothing reads does not split entries');
});

test('a Basic credential is in the key as a keyed hash, with the address it was sent from', () => {
  const anna = { authorization: `Basic ${Buffer.from('anna:anna').toString('base64')}` };
  const other = { authorization: `Basic ${Buffer.from('anna:wrong').toString('base64')}` };
  const annaKey = key(anna);
  assert.ok(annaKey);
  assert.equal(key(anna), annaKey, 'the same credential finds the same answer');
  assert.ok(!annaKey.includes(anna.authorization.slice(6)) && !annaKey.includes('anna:anna'));
  assert.notEqual(key(other), annaKey);
  assert.notEqual(key(anna), key(), 'never the anonymous answer');
  const from = (address: string, headers: Record<string, string> = {}) =>
    requestKeyOf(request('GET', { host: 'h', ...anna, ...headers }, address), '/thing.json', nobody);
  assert.notEqual(from('198.51.100.7'), annaKey, 'another address: its own log-in limits');
  assert.notEqual(from('192.0.2.1', { 'x-forwarded-for': '203.0.113.9' }), annaKey);
});

test('forwarded scheme and host count only from a trusted proxy, as they do for links', () => {
  const proxy = compileTrust(['192.0.2.1']);
  const forwarded = { 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' };
  const plain = requestKeyOf(request('GET', {}), '/t', proxy);
  assert.notEqual(requestKeyOf(request('GET', forwarded), '/t', proxy), plain);
  assert.equal(requestKeyOf(request('GET', forwarded, '198.51.100.7'), '/t', proxy), plain);
});

const view: View<{ name: string }> = {
  html: (m) => html`<!DOCTYPE html><title>${m.name}</title><p>${m.name}</p>`,
  xml: (m) => html`<thing><name>${m.name}</name></thing>`,
  json: (m) => ({ name: m.name, padding: 'x'.repeat(600) }),
};

interface Options {
  readonly version?: 'sync' | 'async';
  readonly freshForMs?: number;
  readonly trustProxy?: string[];
}

/** The layer with one cacheable resource; `state` counts what the stages after the exit did. */
async function serve(t: TestContext, options: Options = {}) {
  const state = {
    name: 'Goethe',
    version: 1,
    versionReads: 0,
    handlerCalls: 0,
    /** Requests that reached the stages after the early exit (the preHandler). */
    pastTheExit: 0,
    /** The database is gone: the version read throws (sync) or rejects (async). */
    down: false,
    /** The layer's clock: the test moves it. */
    now: Date.parse('2026-11-27T12:00:00Z'),
  };
  const readVersion = () => {
    state.versionReads += 1;
    if (options.version === 'sync') {
      if (state.down) throw new Error('database is locked');
      return state.version;
    }
    return state.down ? Promise.reject(new Error('connection terminated')) : Promise.resolve(state.version);
  };
  const cache = new RepresentationCache({ maxBytes: 1 << 20, changes: versionFeed(readVersion) });
  const thing: ResourceDefinition = {
    name: 'thing',
    path: '/thing',
    cacheable: true,
    methods: {
      async GET() {
        state.handlerCalls += 1;
        const freshUntil =
          options.freshForMs === undefined ? undefined : new Date(state.now + options.freshForMs);
        const representation = {
          model: { name: state.name },
          view,
          canonicalPath: '/thing',
          schema: 'thing',
          lastModified: new Date('2026-01-01T00:00:00Z'),
          ...(freshUntil && { freshUntil }),
        };
        return { type: 'representation', representation };
      },
    },
  };
  const app = await createResourceApp({
    baseUrl: 'https://library.example',
    trustProxy: options.trustProxy ?? [],
    resources: [thing],
    rewrites: [],
    displayErrors: false,
    representationCache: cache,
    clock: () => state.now,
    configure(app) {
      app.addHook('preHandler', async () => {
        state.pastTheExit += 1;
      });
    },
  });
  t.after(() => app.close());
  const get = async (path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
    const response = await app.inject({ method, url: path, headers, remoteAddress: '192.0.2.1' });
    const { date: _date, ...seen } = response.headers;
    return { status: response.statusCode, headers: seen, body: response.body };
  };
  return { state, get };
}

for (const version of ['sync', 'async'] as const) {
  test(`a repeated anonymous GET is answered by the early exit with the same answer (${version} version read)`, async (t) => {
    const { state, get } = await serve(t, { version });
    const first = await get('/thing.json');
    const second = await get('/thing.json');
    assert.equal(state.pastTheExit, 1, 'the second left the pipeline in its first stage');
    assert.equal(state.handlerCalls, 1);
    assert.deepEqual(second, first, 'status, every header and the body');
    assert.match(String(first.headers['last-modified']), /2026 00:00:00 GMT/);
    for (const name of ['x-content-type-options', 'cache-control', 'vary', 'content-security-policy'])
      assert.ok(second.headers[name] !== undefined, `the finishing stage ran for the kept answer: ${name}`);
    const head = await get('/thing.json', {}, 'HEAD');
    assert.equal(state.pastTheExit, 1, 'HEAD from the GET');
    assert.equal(head.body, '');
    assert.deepEqual(head.headers, first.headers, 'HEAD: the GET headers, Content-Length included');
    assert.equal(
      state.versionReads,
      3,
      'one version read per request: the dispatcher reuses the first stage’s',
    );
  });
}

for (const version of ['sync', 'async'] as const) {
  test(`a failed version read is never answered from a kept response (${version})`, async (t) => {
    const { state, get } = await serve(t, { version });
    const kept = await get('/thing.json');
    await get('/thing.json');
    assert.equal(state.pastTheExit, 1);
    state.down = true;
    const failed = await get('/thing.json');
    assert.equal(failed.status, 500, 'what the dispatcher makes of it (the catalogue maps it to 503)');
    assert.equal(state.pastTheExit, 2);
    assert.equal(state.versionReads, 4, 'the dispatcher reads again: the first stage recorded no version');
    state.down = false;
    assert.deepEqual(await get('/thing.json'), kept, 'and once it is back, the kept answer again');
    assert.equal(state.pastTheExit, 2);
  });
}

test('after a write (a new version) nothing kept before is answered', async (t) => {
  const { state, get } = await serve(t);
  const before = await get('/thing.json');
  await get('/thing.json');
  state.name = 'Schiller';
  state.version += 1;
  const after = await get('/thing.json');
  assert.match(after.body, /Schiller/);
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.equal(state.handlerCalls, 2);
  assert.deepEqual(await get('/thing.json'), after, 'and then keeps the new one');
  assert.equal(state.pastTheExit, 2);
});

test('a request without a key goes through every stage, with its own answer', async (t) => {
  const { state, get } = await serve(t);
  const plain = await get('/thing.json');
  const conditional = await get('/thing.json', { 'if-none-match': String(plain.headers.etag) });
  assert.equal(conditional.status, 304);
  assert.equal((await get('/thing.json', { cookie: 'a=1' })).status, 200);
  assert.equal(state.pastTheExit, 3, 'neither was answered from a kept response');
  const gzip = await get('/thing.json', { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(await get('/thing.json', { 'accept-encoding': 'gzip' }), gzip);
  assert.equal((await get('/thing.json')).headers['content-encoding'], undefined);
  assert.equal(state.pastTheExit, 4, 'each coding its own kept answer');
  assert.equal(state.handlerCalls, 1, 'all of them from the one rendering');
});

test('Last-Modified is sent by the layer’s clock: not within the second it names, then always', async (t) => {
  const { state, get } = await serve(t);
  state.now = Date.parse('2026-01-01T00:00:00.500Z');
  const within = await get('/thing.json');
  assert.equal(
    within.headers['last-modified'],
    undefined,
    'a second write within it would carry the same date',
  );
  assert.equal((await get('/thing.json')).headers['last-modified'], undefined, 'kept: the same rule');
  state.now += 1000;
  assert.equal((await get('/thing.json')).headers['last-modified'], 'Thu, 01 Jan 2026 00:00:00 GMT');
  assert.equal(state.handlerCalls, 1, 'the kept answer dates itself by the clock');
});

test('an answer that changes with the clock is not answered after its freshUntil', async (t) => {
  const { state, get } = await serve(t, { freshForMs: 300 });
  await get('/thing.json');
  await get('/thing.json');
  assert.equal(state.handlerCalls, 1);
  state.now += 300;
  await get('/thing.json');
  assert.equal(state.handlerCalls, 2, 'rendered again once it was due');
});

test('a trusted proxy’s forwarded host gets links of its own; anybody else’s is ignored', async (t) => {
  const trusted = await serve(t, { trustProxy: ['192.0.2.1'] });
  const a = await trusted.get('/thing.json', { 'x-forwarded-host': 'a.example' });
  const b = await trusted.get('/thing.json', { 'x-forwarded-host': 'b.example' });
  assert.match(String(a.headers.link), /a\.example/);
  assert.match(String(b.headers.link), /b\.example/);
  assert.deepEqual(await trusted.get('/thing.json', { 'x-forwarded-host': 'a.example' }), a);
  assert.deepEqual(await trusted.get('/thing.json', { 'x-forwarded-host': 'b.example' }), b);
  const untrusted = await serve(t);
  const ignored = await untrusted.get('/thing.json', { 'x-forwarded-host': 'a.example' });
  assert.match(String(ignored.headers.link), /library\.example/);
});
