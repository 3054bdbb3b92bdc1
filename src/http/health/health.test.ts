// /up on the layer: 200 while the check resolves, 503 when it rejects or hangs, for GET and
// HEAD, under the base path, uncacheable, and never reported as an error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createResourceApp } from '../app/create-app.ts';

async function appWith(check: () => Promise<unknown>, baseUrl = 'http://library.example') {
  const reported: unknown[] = [];
  const app = await createResourceApp({
    baseUrl,
    trustProxy: [],
    resources: [],
    rewrites: [],
    displayErrors: false,
    reportError: (error) => reported.push(error),
    health: { check, timeoutMs: 50 },
  });
  return { app, reported };
}

test('/up answers 200 while the database answers', async () => {
  const { app, reported } = await appWith(async () => 1);
  const get = await app.inject({ url: '/up' });
  assert.equal(get.statusCode, 200);
  assert.equal(get.body, 'up\n');
  assert.match(String(get.headers['content-type']), /^text\/plain/);
  assert.equal(get.headers['cache-control'], 'no-store');
  const head = await app.inject({ method: 'HEAD', url: '/up' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  assert.equal(head.headers['content-length'], '3');
  assert.deepEqual(reported, []);
  await app.close();
});

test('/up answers 503 when the check fails or hangs, and reports nothing', async () => {
  let mode: 'fail' | 'hang' | 'ok' = 'fail';
  const { app, reported } = await appWith(() =>
    mode === 'fail'
      ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'))
      : mode === 'hang'
        ? new Promise(() => {})
        : Promise.resolve(1),
  );
  for (const m of ['fail', 'hang'] as const) {
    mode = m;
    const down = await app.inject({ url: '/up' });
    assert.equal(down.statusCode, 503, m);
    assert.equal(down.headers['cache-control'], 'no-store');
    assert.equal(down.headers['retry-after'], '5');
    assert.match(down.body, /^down/);
  }
  mode = 'ok';
  assert.equal((await app.inject({ url: '/up' })).statusCode, 200, 'up again without a restart');
  assert.deepEqual(reported, [], 'a failed probe is not an error to report');
  await app.close();
});

test('/up lives under the base path; without health there is none', async () => {
  const { app } = await appWith(async () => 1, 'http://library.example/katalog');
  assert.equal((await app.inject({ url: '/katalog/up' })).statusCode, 200);
  assert.equal((await app.inject({ url: '/up' })).statusCode, 404);
  await app.close();
  const plain = await createResourceApp({
    baseUrl: 'http://library.example',
    trustProxy: [],
    resources: [],
    rewrites: [],
    displayErrors: false,
  });
  assert.equal((await plain.inject({ url: '/up' })).statusCode, 404);
  await plain.close();
});
