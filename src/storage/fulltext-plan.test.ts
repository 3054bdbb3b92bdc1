import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiFold, commonThreshold } from './fulltext-plan.ts';
import { walkWindow, WALK_WINDOW, MAX_WALK_WINDOW } from './search-page.ts';

test('asciiFold folds like FTS5 unicode61 where the result is ASCII, and refuses the rest', () => {
  assert.equal(asciiFold('Müller'), 'muller');
  assert.equal(asciiFold('ÉCOLE'), 'ecole');
  assert.equal(asciiFold('garten42'), 'garten42');
  assert.equal(asciiFold('weiß'), undefined); // unicode61 keeps ß
  assert.equal(asciiFold('ørsted'), undefined);
  assert.equal(asciiFold('толстой'), undefined);
});

test('common means 15 % of a small table and 15·√N matches of a large one', () => {
  assert.equal(commonThreshold(0), 1);
  assert.equal(commonThreshold(768), 116);
  assert.equal(commonThreshold(100_000), 4744);
  assert.equal(commonThreshold(1_000_000), 15_001);
});

test('the walk window: twice what the expected share needs, within bounds', () => {
  assert.equal(walkWindow(1, 21), WALK_WINDOW);
  assert.equal(walkWindow(0.04, 21), 1050);
  assert.equal(walkWindow(0.015, 101), MAX_WALK_WINDOW);
});
