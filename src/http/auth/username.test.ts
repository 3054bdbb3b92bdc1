import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limiterKey } from './rate-limit.ts';
import { normaliseUsername } from './username.ts';

test('one normal form for every spelling of a name: padding, NBSP, U+3000, case, fullwidth, zero-width', () => {
  for (const spelling of [
    'goethe',
    ' goethe',
    'goethe ',
    '\tgoethe\n',
    '\u00a0goethe',
    '\u3000goethe\u3000',
    'GOETHE',
    'ｇｏｅｔｈｅ',
    'goe\u200bthe',
    '\ufeffgoethe',
  ]) {
    assert.equal(normaliseUsername(spelling), 'goethe', JSON.stringify(spelling));
    assert.equal(
      limiterKey(spelling, '192.0.2.1'),
      limiterKey('goethe', '192.0.2.1'),
      JSON.stringify(spelling),
    );
  }
  assert.notEqual(normaliseUsername('goe the'), 'goethe', 'inner spaces are part of the name');
});
