import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { registerCatalogueRoutes } from './routes.ts';
import { SCHEMA_NAMES } from './schemas/index.ts';
import { fakePersonStore, goethe } from '../../test/kit/catalogue/fakes.ts';

const patron = {
  ...goethe,
  id: 7,
  slug: 'anna-berger',
  vorname: 'Anna',
  nachname: 'Berger',
  isPublic: false,
};

async function app() {
  const a = Fastify();
  await registerCatalogueRoutes(a, {
    persons: fakePersonStore([goethe, patron], { moved: { alt: 'goethe' }, gone: ['weg'] }),
  });
  return a;
}

test('schemas are served as XSD and JSON Schema', async () => {
  const a = await app();
  for (const name of SCHEMA_NAMES) {
    const xsd = await a.inject(`/schema/${name}.xsd`);
    assert.equal(xsd.statusCode, 200);
    assert.match(xsd.headers['content-type'] as string, /^application\/xml/);
    assert.match(xsd.body, /<xs:schema/);
    const json = await a.inject(`/schema/${name}.json`);
    assert.match(json.headers['content-type'] as string, /^application\/schema\+json/);
    assert.equal(JSON.parse(json.body).title, name);
  }
  assert.equal((await a.inject('/schema/nichts.xsd')).statusCode, 404);
});

test('portraits: initials from the name, default silhouette, 301/410/404, ETag and 304', async () => {
  const a = await app();
  const g = await a.inject('/bilder/goethe.svg');
  assert.equal(g.statusCode, 200);
  assert.equal(g.headers['content-type'], 'image/svg+xml');
  assert.equal(g.headers['x-content-type-options'], 'nosniff');
  assert.match(g.body, />JG<\/text>/);
  assert.equal((await a.inject('/bilder/goethe.svg')).body, g.body, 'deterministic');
  const again = await a.inject({
    url: '/bilder/goethe.svg',
    headers: { 'if-none-match': g.headers.etag as string },
  });
  assert.equal(again.statusCode, 304);
  assert.match((await a.inject('/bilder/standard.svg')).body, /<path /);
  const moved = await a.inject('/bilder/alt.svg');
  assert.equal(moved.statusCode, 301);
  assert.equal(moved.headers.location, 'goethe.svg');
  assert.equal((await a.inject('/bilder/weg.svg')).statusCode, 410);
  assert.equal((await a.inject('/bilder/niemand.svg')).statusCode, 404);
  assert.equal((await a.inject('/bilder/Goethe.png')).statusCode, 404);
});

test('a private patron has no portrait: the same 404 as an unknown slug (ADR 0062)', async () => {
  const a = await app();
  const patronPortrait = await a.inject('/bilder/anna-berger.svg');
  const unknown = await a.inject('/bilder/niemand.svg');
  assert.equal(patronPortrait.statusCode, 404);
  assert.equal(patronPortrait.body, unknown.body);
});

test('If-None-Match uses the weak comparison: a weak tag, a list and * all give 304', async () => {
  const a = await app();
  const first = await a.inject('/static/shelfmark.css');
  const etag = first.headers.etag as string;
  assert.match(etag, /^"/, 'the tag itself is strong');
  for (const inm of [`W/${etag}`, `"other", ${etag}`, '*']) {
    const again = await a.inject({ url: '/static/shelfmark.css', headers: { 'if-none-match': inm } });
    assert.equal(again.statusCode, 304, inm);
  }
  const other = await a.inject({ url: '/static/shelfmark.css', headers: { 'if-none-match': 'W/"other"' } });
  assert.equal(other.statusCode, 200);
});

test('a portrait file name that is no slug is 404, with or without a person store', async () => {
  const bare = Fastify();
  await registerCatalogueRoutes(bare);
  for (const a of [await app(), bare]) {
    for (const file of ['a--b.svg', 'goethe-.svg', '-goethe.svg']) {
      assert.equal((await a.inject(`/bilder/${file}`)).statusCode, 404, file);
    }
  }
});

test('the stylesheet is served as CSS', async () => {
  const css = await (await app()).inject('/static/shelfmark.css');
  assert.equal(css.statusCode, 200);
  assert.match(css.headers['content-type'] as string, /^text\/css/);
  assert.match(css.body, /:focus-visible/);
});

test('HEAD works although the layer turns automatic HEAD routes off', async () => {
  const a = Fastify({ exposeHeadRoutes: false });
  await registerCatalogueRoutes(a);
  const head = await a.inject({ method: 'HEAD', url: '/static/shelfmark.css' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
});
