import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockChanges, earliestFreshUntil, freshUntilField } from './clock-changes.ts';

const t = (iso: string) => new Date(`2026-01-0${iso}T00:00:00.000Z`);

test('instants passed count for Last-Modified, the earliest ahead is freshUntil', () => {
  const now = t('5');
  assert.deepEqual(clockChanges([t('2'), t('4'), null, t('9'), undefined, t('7')], now), {
    changedAt: t('4'),
    freshUntil: t('7'),
  });
  assert.deepEqual(clockChanges([], now), { changedAt: null, freshUntil: undefined });
  assert.deepEqual(clockChanges([t('1')], now), { changedAt: t('1'), freshUntil: undefined });
});

test('an instant equal to now is on both sides: never too early a Last-Modified, never served again', () => {
  assert.deepEqual(clockChanges([t('5')], t('5')), { changedAt: t('5'), freshUntil: t('5') });
});

test('the freshUntil field is absent when nothing changes with the clock', () => {
  assert.deepEqual(freshUntilField(undefined), {});
  assert.deepEqual(freshUntilField(null), {});
  assert.deepEqual(earliestFreshUntil([undefined, t('8'), t('6')]), { freshUntil: t('6') });
  assert.deepEqual(earliestFreshUntil([]), {});
});
