// Cache hits answered before Fastify (ADR 0069): which requests the front may answer, that its
// answers are the full path's answers byte for byte, and that it never answers stale.
import assert from 'node:assert/strict';
import http, { type IncomingMessage } from 'node:http';
import { test, type TestContext } from 'node:test';
import { listenCounting } from '../../../test/kit/http/listen.ts';
import { requestKeyOf } from './cache-front.ts';
import { RepresentationCache } from '../cache/index.ts';
import { compileTrust } from '../links/links.ts';
import { html } from '../representation/markup.ts';
import type { ResourceDefinition, View } from '../resource/types.ts';

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
  const fullPathOnly = {
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
  for (const [name, value] of Object.entries(fullPathOnly))
    assert.equal(key({ [name]: value }), undefined, `${name} takes the full path`);
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

/** A real server: Fastify's own onRequest hook counts what reached Fastify at all. */
async function serve(t: TestContext, options: Options = {}) {
  const state = {
    name: 'Goethe',
    version: 1,
    versionReads: 0,
    handlerCalls: 0,
    fastifySaw: 0,
    /** The database is gone: the version read throws (sync) or rejects (async). */
    down: false,
  };
  const readVersion = () => {
    state.versionReads += 1;
    if (options.version === 'sync') {
      if (state.down) throw new Error('database is locked');
      return state.version;
    }
    return state.down ? Promise.reject(new Error('connection terminated')) : Promise.resolve(state.version);
  };
  const cache = new RepresentationCache({ maxBytes: 1 << 20, version: readVersion });
  const thing: ResourceDefinition = {
    name: 'thing',
    path: '/thing',
    cacheable: true,
    methods: {
      async GET() {
        state.handlerCalls += 1;
        const freshUntil =
          options.freshForMs === undefined ? undefined : new Date(Date.now() + options.freshForMs);
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
  const { port, agent } = await listenCounting(
    t,
    {
      baseUrl: 'https://library.example',
      trustProxy: options.trustProxy ?? [],
      resources: [thing],
      rewrites: [],
      displayErrors: false,
      representationCache: cache,
      // The front alone: a miss goes to Fastify (lean-get.test.ts has the lean path behind it).
      leanPath: false,
    },
    () => {
      state.fastifySaw += 1;
    },
  );
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = http.request({ port, path, method, headers, agent }, (response) => {
        let body = '';
        response.setEncoding('latin1');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          const { date: _date, ...seen } = response.headers;
          resolve({ status: response.statusCode ?? 0, headers: seen, body });
        });
      });
      req.on('error', reject);
      req.end();
    });
  return { state, get };
}

for (const version of ['sync', 'async'] as const) {
  test(`a repeated anonymous GET is answered in front of Fastify with the same bytes (${version} version read)`, async (t) => {
    const { state, get } = await serve(t, { version });
    const first = await get('/thing.json');
    const second = await get('/thing.json');
    assert.equal(state.fastifySaw, 1, 'the second never reached Fastify');
    assert.equal(state.handlerCalls, 1);
    assert.deepEqual(second, first, 'status, every header and the body');
    assert.match(String(first.headers['last-modified']), /2026 00:00:00 GMT/);
    const head = await get('/thing.json', {}, 'HEAD');
    assert.equal(state.fastifySaw, 1, 'HEAD from the GET');
    assert.equal(head.body, '');
    assert.deepEqual(head.headers, first.headers, 'HEAD: the GET headers, Content-Length included');
    assert.equal(state.versionReads, 3, 'one version read per request: the full path reuses the front’s');
  });
}

for (const version of ['sync', 'async'] as const) {
  test(`a failed version read is never answered in front: the full path answers it (${version})`, async (t) => {
    const { state, get } = await serve(t, { version });
    const kept = await get('/thing.json');
    await get('/thing.json');
    assert.equal(state.fastifySaw, 1);
    state.down = true;
    const failed = await get('/thing.json');
    assert.equal(failed.status, 500, 'what the full path makes of it (the catalogue maps it to 503)');
    assert.equal(state.fastifySaw, 2);
    assert.equal(state.versionReads, 4, 'the full path reads again: the front passed no version on');
    state.down = false;
    assert.deepEqual(await get('/thing.json'), kept, 'and once it is back, the kept answer again');
    assert.equal(state.fastifySaw, 2);
  });
}

test('after a write (a new version) the front never answers what it kept before', async (t) => {
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
  assert.equal(state.fastifySaw, 2);
});

test('what the key leaves out goes the full path, with its own answer', async (t) => {
  const { state, get } = await serve(t);
  const plain = await get('/thing.json');
  const conditional = await get('/thing.json', { 'if-none-match': String(plain.headers.etag) });
  assert.equal(conditional.status, 304);
  assert.equal((await get('/thing.json', { authorization: 'Basic YTpi' })).status, 200);
  assert.equal((await get('/thing.json', { cookie: 'a=1' })).status, 200);
  assert.equal(state.fastifySaw, 4, 'none of the three was answered in front');
  const gzip = await get('/thing.json', { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(await get('/thing.json', { 'accept-encoding': 'gzip' }), gzip);
  assert.equal((await get('/thing.json')).headers['content-encoding'], undefined);
  assert.equal(state.fastifySaw, 5, 'each coding its own kept answer');
  assert.equal(state.handlerCalls, 1, 'all of them from the one rendering');
});

test('an answer that changes with the clock is not answered after its freshUntil', async (t) => {
  const { state, get } = await serve(t, { freshForMs: 300 });
  await get('/thing.json');
  await get('/thing.json');
  assert.equal(state.handlerCalls, 1);
  await new Promise((resolve) => setTimeout(resolve, 350));
  await get('/thing.json');
  assert.equal(state.handlerCalls, 2, 'rendered again once it was due');
});

test('a trusted proxy’s forwarded host gets links of its own; anybody else’s is ignored', async (t) => {
  const trusted = await serve(t, { trustProxy: ['loopback'] });
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
