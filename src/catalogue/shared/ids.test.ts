import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseId } from './ids.ts';

test('an id is a positive integer of at most 15 digits without leading zeros', () => {
  assert.equal(parseId('1'), 1);
  assert.equal(parseId('999999999999999'), 999_999_999_999_999);
  for (const bad of [
    null,
    undefined,
    '',
    '0',
    '01',
    '-1',
    '1.0',
    '1e3',
    ' 1',
    '1 ',
    '1000000000000000',
    'x',
  ]) {
    assert.equal(parseId(bad), null, String(bad));
  }
});
