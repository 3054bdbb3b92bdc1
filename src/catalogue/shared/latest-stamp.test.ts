import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latestStamp } from './versions.ts';

test('latestStamp: the latest ISO stamp, skipping missing ones and any after the bound', () => {
  const a = '2026-01-01T00:00:00.000Z';
  const b = '2026-02-01T00:00:00.000Z';
  const c = '2026-03-01T00:00:00.000Z';
  const cases: [unknown[], string | undefined, string | null][] = [
    [[], undefined, null],
    [[null, undefined], undefined, null],
    [[b, a, c], undefined, c],
    [[a, null, b], undefined, b],
    [[a, c, b], b, b],
    [[c], b, null],
    [[a, 3, b], undefined, b],
  ];
  for (const [stamps, notAfter, expected] of cases) {
    assert.equal(latestStamp(stamps, notAfter)?.toISOString() ?? null, expected, JSON.stringify(stamps));
  }
});
