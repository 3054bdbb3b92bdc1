import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSessionCodec } from './codec.ts';

const OLD = 'old-secret-old-secret-old-secret-0';
const NEW = 'new-secret-new-secret-new-secret-1';
const T0 = Date.UTC(2026, 0, 1, 12);
const HOUR = 3600_000;

/** The same signature bytes spelled differently: the unused low bits of the last character set. */
function respell(value: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(value.at(-1) ?? '');
  return value.slice(0, -1) + alphabet[(last & ~3) | (~last & 3)];
}

function tamper(value: string, at: number): string {
  const c = value[at] === 'A' ? 'B' : 'A';
  return value.slice(0, at) + c + value.slice(at + 1);
}

test('a session round-trips until it expires', () => {
  const codec = createSessionCodec({ secrets: [NEW], ttlSeconds: 3600 });
  const { value, session } = codec.issue(42, T0);
  assert.deepEqual(codec.read(value, T0), session);
  assert.equal(session.userId, 42);
  assert.equal(session.expires, T0 / 1000 + 3600);
  assert.match(session.id, /^[\w-]{22}$/);
  assert.ok(value.length < 200, 'the cookie stays small');
  assert.notEqual(codec.issue(42, T0).session.id, session.id, 'each login gets its own id');
});

test('what reads as anonymous (null)', async (t) => {
  const codec = createSessionCodec({ secrets: [NEW], ttlSeconds: 3600 });
  const { value } = codec.issue(42, T0);
  const [payload = '', sig = ''] = value.split('.');
  const forged = Buffer.from(JSON.stringify({ u: 1, e: T0 / 1000 + 9999, s: 'a'.repeat(22) })).toString(
    'base64url',
  );
  const cases: [string, string | undefined, number][] = [
    ['expired', value, T0 + HOUR],
    ['long expired', value, T0 + 100 * HOUR],
    ['tampered payload', tamper(value, 3), T0],
    ['tampered signature', tamper(value, value.length - 3), T0],
    ['signature spelled another way (same bytes)', respell(value), T0],
    ['other user id, old signature', `${forged}.${sig}`, T0],
    ['signature missing', payload, T0],
    ['extra part', `${value}.x`, T0],
    ['not base64url', `${payload}!.${sig}`, T0],
    ['empty', '', T0],
    ['absent', undefined, T0],
    ['garbage', 'hello world', T0],
    ['wrong key', createSessionCodec({ secrets: [OLD] }).issue(42, T0).value, T0],
  ];
  for (const [name, cookie, now] of cases)
    await t.test(name, () => assert.equal(codec.read(cookie, now), null));
});

test('rotation: sign with the first secret, accept all', () => {
  const before = createSessionCodec({ secrets: [OLD] });
  const during = createSessionCodec({ secrets: [NEW, OLD] });
  const after = createSessionCodec({ secrets: [NEW] });
  const oldCookie = before.issue(7, T0).value;
  const newCookie = during.issue(7, T0).value;
  assert.equal(during.read(oldCookie, T0)?.userId, 7, 'old cookies still work during rotation');
  assert.equal(after.read(newCookie, T0)?.userId, 7, 'new cookies are signed with the new secret');
  assert.equal(after.read(oldCookie, T0), null, 'old cookies die once the old secret is dropped');
});
