// Issue 11 item 5 on the layer: every response — representation, error, plain route — carries
// the Content-Security-Policy (no 'unsafe-inline', frame-ancestors 'none'), X-Frame-Options,
// Referrer-Policy, and HSTS exactly when the configured base URL is https.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResourceApp } from './create-app.ts';
import { html } from '../representation/markup.ts';
import type { ResourceDefinition } from '../resource/types.ts';

const page: ResourceDefinition = {
  name: 'page',
  path: '/seite',
  methods: {
    async GET() {
      return {
        type: 'representation',
        representation: {
          model: {},
          view: {
            html: () => html`<!DOCTYPE html><title>x</title>`,
            xml: () => html`<x/>`,
            json: () => ({}),
          },
          canonicalPath: '/seite',
        },
      };
    },
  },
};

async function appAt(baseUrl: string) {
  return createResourceApp({
    baseUrl,
    trustProxy: ['127.0.0.1'],
    resources: [page],
    rewrites: [],
    displayErrors: false,
    configure: (app) => app.get('/static/x.css', (_request, reply) => reply.type('text/css').send('p{}')),
    passthrough: ['/static/'],
  });
}

test('every response carries CSP, X-Frame-Options and Referrer-Policy', async () => {
  const app = await appAt('http://library.example');
  for (const url of ['/seite', '/seite.json', '/nirgends', '/static/x.css']) {
    const r = await app.inject({ url });
    const csp = String(r.headers['content-security-policy']);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
    assert.match(csp, /(^|; )script-src 'self'(;|$)/, url);
    assert.match(csp, /(^|; )style-src 'self'(;|$)/, url);
    assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/, url);
    assert.equal(r.headers['x-frame-options'], 'DENY', url);
    assert.equal(r.headers['referrer-policy'], 'same-origin', url);
    assert.equal(r.headers['strict-transport-security'], undefined, `${url}: no HSTS over http`);
  }
  // A trusted proxy's X-Forwarded-Proto: https does not turn HSTS on (ADR 0054).
  const forwarded = await app.inject({
    url: '/seite',
    headers: { 'x-forwarded-proto': 'https' },
    remoteAddress: '127.0.0.1',
  });
  assert.equal(forwarded.headers['strict-transport-security'], undefined);
  await app.close();
});

test('HSTS when the base URL is https, on errors too', async () => {
  const app = await appAt('https://library.example/katalog');
  for (const url of ['/katalog/seite', '/katalog/nirgends']) {
    const r = await app.inject({ url });
    assert.equal(r.headers['strict-transport-security'], 'max-age=31536000', url);
  }
  await app.close();
});
