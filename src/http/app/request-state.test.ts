// The RequestState computes each fact once per request, whoever asks for it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../errors/http-error.ts';
import { html, xml } from '../representation/markup.ts';
import type { Principal, ResourceDefinition } from '../resource/types.ts';
import { createResourceApp } from './create-app.ts';
import { accessUser, requestPrincipal } from './request-state.ts';

const ANNA: Principal = { id: 1, username: 'anna', role: 'member' };

const refused: ResourceDefinition = {
  name: 'refused',
  path: '/geheim',
  methods: {
    async GET(ctx) {
      throw new HttpError('SHELFMARK_FORBIDDEN', { detail: `not for ${ctx.user?.username ?? 'anonym'}` });
    },
  },
};

const shown: ResourceDefinition = {
  name: 'shown',
  path: '/offen',
  methods: {
    async GET(ctx) {
      return {
        type: 'representation',
        representation: {
          model: ctx.user?.username ?? 'anonym',
          view: {
            html: (m: string) => html`<p>${m}</p>`,
            xml: (m: string) => xml`<p>${m}</p>`,
            json: (m: string) => ({ m }),
          },
          canonicalPath: '/offen',
        },
      };
    },
  },
};

async function countingApp() {
  const calls: string[] = [];
  const app = await createResourceApp({
    baseUrl: 'https://library.example',
    trustProxy: [],
    resources: [refused, shown],
    rewrites: [],
    passthrough: ['/plain'],
    displayErrors: false,
    async authenticate(request) {
      calls.push(request.url);
      return request.headers['x-user'] === 'anna' ? ANNA : null;
    },
    configure(app) {
      app.get('/plain', async (request) => {
        const first = await requestPrincipal(request);
        const second = await requestPrincipal(request);
        return { first: first?.username ?? null, same: first === second };
      });
    },
  });
  return { app, calls };
}

test('authentication runs once per request: handler, HTML error page and plain routes share it', async () => {
  const { app, calls } = await countingApp();
  const page = await app.inject({ method: 'GET', url: '/geheim', headers: { 'x-user': 'anna' } });
  assert.equal(page.statusCode, 403);
  assert.match(page.headers['content-type'] as string, /^text\/html/);
  assert.match(page.body, /not for anna/);
  assert.equal(calls.length, 1, 'the dispatcher and the error page asked once');

  calls.length = 0;
  const plain = await app.inject({ method: 'GET', url: '/plain', headers: { 'x-user': 'anna' } });
  assert.deepEqual(plain.json(), { first: 'anna', same: true });
  assert.equal(calls.length, 1);

  calls.length = 0;
  await app.inject({ method: 'GET', url: '/offen.json' });
  await app.inject({ method: 'GET', url: '/offen.json' });
  assert.equal(calls.length, 2, 'memoised per request, not across requests');
});

test('accessUser: nothing for a request the layer never saw or an app without security', async () => {
  const { app } = await countingApp();
  let seen: string | undefined = 'unset';
  app.addHook('onResponse', async (request) => {
    seen = accessUser(request.raw);
  });
  await app.inject({ method: 'GET', url: '/offen.json', headers: { 'x-user': 'anna' } });
  assert.equal(seen, undefined, 'options.authenticate names no %u (only security does)');
});
