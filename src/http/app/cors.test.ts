// Issue 11 item 6 (the public part): any origin may read resources without credentials
// (`Access-Control-Allow-Origin: *`, never with Allow-Credentials); a preflight for GET/HEAD is
// answered, one for a write is not, and writes carry no CORS headers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResourceApp } from './create-app.ts';
import { html } from '../representation/markup.ts';
import type { Outcome, ResourceDefinition } from '../resource/types.ts';

const thing = (): Outcome => ({
  type: 'representation',
  representation: {
    model: {},
    view: {
      html: () => html`<!DOCTYPE html><title>x</title>`,
      xml: () => html`<x/>`,
      json: () => ({ x: 1 }),
    },
    canonicalPath: '/ding',
  },
});
const resource: ResourceDefinition = {
  name: 'ding',
  path: '/ding',
  methods: { GET: async () => thing(), PUT: async () => thing() },
};
const ORIGIN = { origin: 'https://app.example' };

test('reads are open to every origin, without credentials; writes are not', async () => {
  const app = await createResourceApp({
    baseUrl: 'http://library.example',
    trustProxy: [],
    resources: [resource],
    rewrites: [],
    displayErrors: false,
  });
  for (const method of ['GET', 'HEAD'] as const) {
    const r = await app.inject({ method, url: '/ding.json', headers: ORIGIN });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*', method);
    assert.match(String(r.headers['access-control-expose-headers']), /ETag/);
    assert.equal(r.headers['access-control-allow-credentials'], undefined);
  }
  const problem = await app.inject({ url: '/nirgends.json', headers: ORIGIN });
  assert.equal(problem.statusCode, 404);
  assert.equal(problem.headers['access-control-allow-origin'], '*', 'a client may read the problem too');

  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/ding.json',
    headers: {
      ...ORIGIN,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    },
  });
  assert.equal(preflight.statusCode, 204);
  assert.equal(preflight.headers['access-control-allow-origin'], '*');
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD');
  assert.match(String(preflight.headers['access-control-allow-headers']), /If-None-Match/);

  const writePreflight = await app.inject({
    method: 'OPTIONS',
    url: '/ding.json',
    headers: { ...ORIGIN, 'access-control-request-method': 'PUT' },
  });
  assert.equal(writePreflight.statusCode, 204);
  assert.equal(
    writePreflight.headers['access-control-allow-origin'],
    undefined,
    'no write from other origins',
  );
  const put = await app.inject({ method: 'PUT', url: '/ding.json', headers: ORIGIN, payload: {} });
  assert.equal(put.headers['access-control-allow-origin'], undefined);
  await app.close();
});

test('a configured origin gets credentialed CORS on every method and its preflight; others only public reads', async () => {
  const seen: string[] = [];
  const privateThing: ResourceDefinition = {
    name: 'privat',
    path: '/privat',
    methods: {
      GET: async () => thing(),
      PUT: async (ctx) => {
        seen.push(ctx.method);
        return thing();
      },
    },
  };
  const app = await createResourceApp({
    baseUrl: 'http://library.example',
    trustProxy: [],
    corsOrigins: ['https://app.example'],
    resources: [privateThing],
    rewrites: [],
    displayErrors: false,
  });
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: '/privat.json',
    headers: {
      ...ORIGIN,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type, if-match',
    },
  });
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example');
  assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
  assert.match(String(preflight.headers['access-control-allow-methods']), /PUT/);
  assert.match(String(preflight.headers['access-control-allow-headers']), /If-Match/);
  assert.match(String(preflight.headers['vary']), /Origin/);

  for (const method of ['GET', 'PUT'] as const) {
    const r = await app.inject({
      method,
      url: '/privat.json',
      headers: ORIGIN,
      ...(method === 'PUT' && { payload: {} }),
    });
    assert.equal(r.headers['access-control-allow-origin'], 'https://app.example', method);
    assert.equal(r.headers['access-control-allow-credentials'], 'true', method);
    assert.match(String(r.headers['vary']), /Origin/, `${method}: caches must keep origins apart`);
  }
  assert.deepEqual(seen, ['PUT']);

  const stranger = { origin: 'https://evil.example' };
  const strangerPreflight = await app.inject({
    method: 'OPTIONS',
    url: '/privat.json',
    headers: { ...stranger, 'access-control-request-method': 'PUT' },
  });
  assert.equal(strangerPreflight.headers['access-control-allow-origin'], undefined);
  const strangerRead = await app.inject({ url: '/privat.json', headers: stranger });
  assert.equal(strangerRead.headers['access-control-allow-origin'], '*', 'public reads stay open');
  assert.equal(strangerRead.headers['access-control-allow-credentials'], undefined);
  assert.match(String(strangerRead.headers['vary']), /Origin/);
  const strangerWrite = await app.inject({
    method: 'PUT',
    url: '/privat.json',
    headers: stranger,
    payload: {},
  });
  assert.equal(strangerWrite.headers['access-control-allow-origin'], undefined);
  await app.close();
});
