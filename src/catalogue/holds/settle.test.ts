// The queue rule on its own: first come first served, expiry at the stored moment, chains of
// expiries, and the same answer whenever it is computed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { positions, settle, type OpenHold } from './settle.ts';

const hold = (id: number, placedAt: string, extra: Partial<OpenHold> = {}): OpenHold => ({
  id,
  personId: 100 + id,
  placedAt,
  copyId: null,
  readyAt: null,
  expiresAt: null,
  ...extra,
});

test('a free copy goes to the first waiting hold, ready from when the copy came back', () => {
  const s = settle(
    [
      hold(2, '2024-01-02T00:00:00.000Z'),
      hold(1, '2024-01-02T00:00:00.000Z'),
      hold(3, '2024-01-01T00:00:00.000Z'),
    ],
    [{ id: 9, since: '2024-02-01T00:00:00.000Z' }],
    '2024-02-01T00:00:00.000Z',
    7,
  );
  assert.deepEqual(
    s.holds.map((h) => [h.id, h.copyId, h.readyAt, h.expiresAt]),
    [
      [3, 9, '2024-02-01T00:00:00.000Z', '2024-02-08T00:00:00.000Z'],
      [1, null, null, null],
      [2, null, null, null],
    ],
  );
  assert.deepEqual(
    [...positions(s.holds)],
    [
      [1, 1],
      [2, 2],
    ],
  );
  assert.deepEqual([...s.changed], [3]);
  assert.deepEqual(s.free, []);
});

test('expiries chain at their own moments, whenever computed; the last copy is free again', () => {
  const open = [
    hold(1, '2024-01-01T00:00:00.000Z', {
      copyId: 9,
      readyAt: '2024-02-01T00:00:00.000Z',
      expiresAt: '2024-02-08T00:00:00.000Z',
    }),
    hold(2, '2024-01-02T00:00:00.000Z'),
  ];
  const early = settle(open, [], '2024-02-07T23:59:59.999Z', 7);
  assert.equal(early.changed.size, 0);
  const mid = settle(open, [], '2024-02-10T00:00:00.000Z', 7);
  assert.deepEqual(
    mid.holds.map((h) => [h.id, h.copyId, h.readyAt, h.expiresAt, h.endedAt]),
    [
      [1, 9, '2024-02-01T00:00:00.000Z', '2024-02-08T00:00:00.000Z', '2024-02-08T00:00:00.000Z'],
      [2, 9, '2024-02-08T00:00:00.000Z', '2024-02-15T00:00:00.000Z', null],
    ],
  );
  const late = settle(open, [], '2024-03-01T00:00:00.000Z', 7);
  assert.deepEqual(
    late.holds.map((h) => h.endedAt),
    ['2024-02-08T00:00:00.000Z', '2024-02-15T00:00:00.000Z'],
  );
  assert.deepEqual(late.free, [{ id: 9, since: '2024-02-15T00:00:00.000Z' }]);
  // Settling the intermediate state later gives the same end state (deterministic).
  const again = settle(
    mid.holds.filter((h) => h.endedAt === null),
    [],
    '2024-03-01T00:00:00.000Z',
    7,
  );
  assert.equal(again.holds[0]?.endedAt, '2024-02-15T00:00:00.000Z');
});
