// The dispatcher with a representation cache (ADR 0048): what is served from it, and for whom.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResourceApp } from './create-app.ts';
import { RepresentationCache } from '../cache/index.ts';
import { html } from '../representation/markup.ts';
import type { Principal, ResourceDefinition, View } from '../resource/types.ts';
import { versionFeed } from '../../../test/kit/http/version-feed.ts';

interface Model {
  readonly name: string;
  readonly viewer: string;
}

const view: View<Model> = {
  html: (m) => html`<!DOCTYPE html><title>${m.name}</title><p>${m.viewer}</p>`,
  xml: (m) => html`<thing><name>${m.name}</name></thing>`,
  json: (m) => ({ name: m.name, viewer: m.viewer }),
};

const USERS: Record<string, Principal> = {
  staff: { id: 1, username: 'staff', role: 'staff' },
  member: { id: 2, username: 'member', role: 'member' },
};

async function appWithCache(cacheable: boolean) {
  const state = { name: 'Goethe', version: 1, calls: 0 };
  const cache = new RepresentationCache({
    maxBytes: 1 << 20,
    changes: versionFeed(async () => state.version),
  });
  const thing: ResourceDefinition = {
    name: 'thing',
    path: '/thing',
    cacheable,
    methods: {
      async GET(ctx) {
        state.calls += 1;
        const viewer = ctx.user ? `${ctx.user.role} ${ctx.user.username}` : 'anonymous';
        return {
          type: 'representation',
          representation: { model: { name: state.name, viewer }, view, canonicalPath: '/thing' },
        };
      },
    },
  };
  const app = await createResourceApp({
    baseUrl: 'https://library.example',
    trustProxy: [],
    resources: [thing],
    rewrites: [],
    displayErrors: false,
    authenticate: async (request) => USERS[String(request.headers['x-user'])] ?? null,
    representationCache: cache,
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });
  return { app, cache, state, get };
}

test('a second GET is served from the cache; a new version renders again with a new ETag', async () => {
  const { cache, state, get } = await appWithCache(true);
  const first = await get('/thing.json');
  const second = await get('/thing.json');
  assert.equal(state.calls, 1, 'the handler ran once');
  assert.equal(second.body, first.body);
  assert.equal(second.headers.etag, first.headers.etag);
  assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(second.headers.link, first.headers.link);
  assert.equal((await get('/thing.json', { 'if-none-match': String(first.headers.etag) })).statusCode, 304);
  assert.equal(cache.stats().entries, 1);

  state.name = 'Schiller';
  state.version += 1;
  const third = await get('/thing.json');
  assert.equal(state.calls, 2);
  assert.match(third.body, /Schiller/);
  assert.notEqual(third.headers.etag, first.headers.etag);
});

test('formats, languages and negotiation each get their own entry, with their own headers', async () => {
  const { state, get } = await appWithCache(true);
  const negotiated = await get('/thing', { accept: 'application/json' });
  const suffix = await get('/thing.json');
  assert.equal(negotiated.headers['content-location'], '/thing.json');
  assert.equal(suffix.headers['content-location'], undefined);
  const de = await get('/thing.html', { 'accept-language': 'de' });
  const en = await get('/thing.html', { 'accept-language': 'en' });
  await get('/thing.xml');
  assert.equal(state.calls, 5);
  assert.equal(
    (await get('/thing', { accept: 'application/json' })).headers['content-location'],
    '/thing.json',
  );
  assert.equal((await get('/thing.html', { 'accept-language': 'en' })).body, en.body);
  assert.equal((await get('/thing.html', { 'accept-language': 'de' })).body, de.body);
  assert.equal(state.calls, 5);
});

test('viewer classes never share bytes: staff, a member and anonymous each get their own', async () => {
  const { state, get } = await appWithCache(true);
  const anonymous = await get('/thing.html');
  const staff = await get('/thing.html', { 'x-user': 'staff' });
  const member = await get('/thing.html', { 'x-user': 'member' });
  assert.match(anonymous.body, /anonymous/);
  assert.match(staff.body, /staff staff/);
  assert.match(member.body, /member member/);
  // Served again (from the cache now): each still sees its own.
  assert.match((await get('/thing.html')).body, /anonymous/);
  assert.match((await get('/thing.html', { 'x-user': 'staff' })).body, /staff staff/);
  assert.match((await get('/thing.html', { 'x-user': 'member' })).body, /member member/);
  assert.equal(state.calls, 3);
  // From the cache too: staff's copy is private, anonymous one shared but revalidated, and
  // both say what they vary on (ADR 0051).
  const staffAgain = await get('/thing.html', { 'x-user': 'staff' });
  assert.equal(staffAgain.headers['cache-control'], 'private, no-cache');
  assert.equal(staffAgain.headers.vary, 'Accept-Language, Cookie, Authorization');
  const anonymousAgain = await get('/thing.html');
  assert.equal(anonymousAgain.headers['cache-control'], 'no-cache');
  assert.equal(anonymousAgain.headers.vary, 'Accept-Language, Cookie, Authorization');
  assert.equal(state.calls, 3, 'all of these came from the cache');
});

test('a resource not marked cacheable runs its handler every time', async () => {
  const { cache, state, get } = await appWithCache(false);
  await get('/thing.json');
  await get('/thing.json');
  assert.equal(state.calls, 2);
  assert.equal(cache.stats().entries, 0);
});
