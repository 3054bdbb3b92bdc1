// Fault: a flood of random Basic credentials from one address (the issue: 200 connections made
// every attempt cost an scrypt and pushed real log-ins to 8–9 s). Once the address is limited
// its attempts are refused before any hashing, and concurrent hashing per address is bounded;
// a real log-in from another address still succeeds. Work is counted (hash verifications),
// never timed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createResourceApp } from '../../src/http/index.ts';
import { html, xml } from '../../src/http/representation/markup.ts';
import type { View } from '../../src/http/resource/types.ts';
import type { AccountRecord } from '../../src/http/auth/index.ts';
import { basic } from './login-support.ts';

const ORIGIN = 'https://library.example';

interface Who {
  readonly user: string | null;
}
const whoView: View<Who> = {
  html: (m) => html`<p>${m.user ?? ''}</p>`,
  xml: (m) => xml`<wer>${m.user ?? ''}</wer>`,
  json: (m) => m,
};
const GOETHE: AccountRecord = { id: 1, username: 'goethe', role: 'member', passwordHash: 'hash:faust' };

async function app() {
  const hashing = { calls: 0, running: 0, maxRunning: 0 };
  const server = await createResourceApp({
    baseUrl: ORIGIN,
    trustProxy: [],
    resources: [
      {
        name: 'who',
        path: '/wer',
        methods: {
          GET: async (ctx) => ({
            type: 'representation',
            representation: {
              model: { user: ctx.user?.username ?? null },
              view: whoView,
              canonicalPath: '/wer',
            },
          }),
        },
      },
    ],
    rewrites: [],
    displayErrors: false,
    security: {
      secrets: ['s'.repeat(40)],
      findUser: async (name) => (name === 'goethe' ? GOETHE : null),
      findUserById: async (id) => (id === 1 ? GOETHE : null),
      dummyHash: 'hash:never',
      // Stands in for scrypt: counted, and slow enough that requests overlap.
      verifyPassword: async (password, hash) => {
        hashing.calls++;
        hashing.running++;
        hashing.maxRunning = Math.max(hashing.maxRunning, hashing.running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        hashing.running--;
        return hash === `hash:${password}`;
      },
    },
  });
  return { server, hashing };
}

test('random Basic credentials from one address are refused without hashing once limited', async () => {
  const { server, hashing } = await app();
  const FLOOD = 300;
  const answers = await Promise.all(
    Array.from({ length: FLOOD }, () =>
      server.inject({
        url: '/wer.json',
        remoteAddress: '203.0.113.66',
        headers: {
          authorization: basic(randomBytes(6).toString('hex'), randomBytes(6).toString('hex')),
        },
      }),
    ),
  );
  const statuses = new Map<number, number>();
  for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
  assert.deepEqual([...statuses.keys()].sort(), [401, 429], `only 401 and 429: ${[...statuses]}`);
  // Concurrent hashing for one address is bounded; what did not fit the queue was refused at once.
  assert.ok(hashing.maxRunning <= 2, `at most 2 at a time for one address, saw ${hashing.maxRunning}`);
  assert.ok(hashing.calls <= 2 + 16, `${hashing.calls} hash verifications for ${FLOOD} concurrent attempts`);
  const busy = answers.find((a) => a.statusCode === 429);
  assert.match(String(busy?.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(busy?.headers['content-type'], 'application/problem+json; charset=utf-8');

  // The flood goes on, one attempt after another, until the address limit (50 failures) holds.
  const attempt = (i: number) =>
    server.inject({
      url: '/wer.json',
      remoteAddress: '203.0.113.66',
      headers: { authorization: basic(`flood-${i}`, 'y') },
    });
  let limitedAt = -1;
  for (let i = 0; i < 60 && limitedAt < 0; i++) if ((await attempt(i)).statusCode === 429) limitedAt = i;
  assert.ok(limitedAt >= 0, 'the address was limited');
  assert.ok(hashing.calls <= 50, `${hashing.calls} hash verifications before the limit`);
  // From now on the address costs no hashing at all, whatever name it tries.
  const before = hashing.calls;
  for (let i = 100; i < 130; i++) {
    const r = await attempt(i);
    assert.equal(r.statusCode, 429);
    assert.match(String(r.headers['retry-after']), /^[1-9]\d*$/);
  }
  assert.equal(hashing.calls, before);

  // A real client elsewhere logs in.
  const real = await server.inject({
    url: '/wer.json',
    remoteAddress: '198.51.100.7',
    headers: { authorization: basic('goethe', 'faust') },
  });
  assert.equal(real.statusCode, 200);
  assert.deepEqual(real.json(), { user: 'goethe' });
});

test('a verified Basic credential is remembered: the next requests cost no hashing', async () => {
  const { server, hashing } = await app();
  const ask = (password: string) =>
    server.inject({
      url: '/wer.json',
      remoteAddress: '198.51.100.7',
      headers: { authorization: basic(' Goethe', password) },
    });
  for (let i = 0; i < 10; i++) assert.equal((await ask('faust')).statusCode, 200);
  assert.equal(hashing.calls, 1, 'one verification for ten requests');
  assert.equal((await ask('wrong')).statusCode, 401, 'another password is verified');
  assert.equal(hashing.calls, 2);
});
