import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidCursorError } from './errors.ts';
import { clampLimit, decodeCursor, encodeCursor, keysetPage, slice, type Key } from './keyset.ts';

test('cursors round-trip and are URL-safe', () => {
  const cursor = encodeCursor(['müller\u0001jörg', 42]);
  assert.match(cursor, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeCursor(cursor, ['string', 'number']), ['müller\u0001jörg', 42]);
});

test('foreign cursors are rejected', () => {
  const bad = [
    '',
    '!!',
    'a'.repeat(3000),
    encodeCursor([1, 'x']),
    encodeCursor(['x']),
    encodeCursor(['x', 1.5]),
    Buffer.from('{"a":1}').toString('base64url'),
  ];
  for (const cursor of bad)
    assert.throws(() => decodeCursor(cursor, ['string', 'number']), InvalidCursorError, cursor);
});

test('slice: next when more rows came back, prev when the other side has rows; before is reversed', () => {
  const key = (n: number) => [String(n), n] as const;
  const forward = slice([1, 2, 3], 2, 'after', false, key);
  assert.deepEqual(forward.items, [1, 2]);
  assert.equal(forward.next, encodeCursor(key(2)));
  assert.equal(forward.prev, undefined);
  const backward = slice([5, 4, 3], 2, 'before', true, key);
  assert.deepEqual(backward.items, [4, 5]);
  assert.equal(backward.prev, encodeCursor(key(4)));
  assert.equal(backward.next, encodeCursor(key(5)));
  assert.deepEqual(slice([], 2, 'after', true, key), { items: [] });
});

test('clampLimit keeps page sizes within 1..max', () => {
  assert.deepEqual(
    [
      clampLimit(0),
      clampLimit(-5),
      clampLimit(20),
      clampLimit(1e9),
      clampLimit(Number.NaN),
      clampLimit(7.9, 5),
    ],
    [1, 1, 20, 100, 100, 5],
  );
});

test("keysetPage probes the cursor's other side unless told the caller needs no link that way", async () => {
  const rows = [1, 2, 3, 4, 5];
  let probes = 0;
  const queries = {
    keyTypes: ['number'] as const,
    fetch: (key: Key | undefined, _direction: 'after' | 'before', limit: number) =>
      Promise.resolve(rows.filter((n) => key === undefined || n > Number(key[0])).slice(0, limit)),
    exists: () => {
      probes++;
      return Promise.resolve(true);
    },
    keyOf: (n: number): Key => [n],
  };
  const after = encodeCursor([2]);
  const linked = await keysetPage({ after, limit: 2 }, queries);
  assert.deepEqual(linked, { items: [3, 4], next: encodeCursor([4]), prev: encodeCursor([3]) });
  assert.equal(probes, 1);
  const unlinked = await keysetPage({ after, limit: 2, otherSide: false }, queries);
  assert.deepEqual(unlinked, { items: [3, 4], next: encodeCursor([4]) });
  assert.equal(probes, 1, 'not probed again');
});

test('keysetPage asks for the other side while the rows are read', async () => {
  let probes = 0;
  let probesWhileFetching = -1;
  const page = await keysetPage(
    { after: encodeCursor([2]), limit: 2 },
    {
      keyTypes: ['number'],
      fetch: () =>
        new Promise<number[]>((resolve) =>
          setImmediate(() => {
            probesWhileFetching = probes;
            resolve([3, 4, 5]);
          }),
        ),
      exists: () => {
        probes++;
        return Promise.resolve(true);
      },
      keyOf: (n: number): Key => [n],
    },
  );
  assert.deepEqual(page.items, [3, 4]);
  assert.equal(probesWhileFetching, 1, 'the probe was sent before the rows came');
});
