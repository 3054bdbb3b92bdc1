// The stems of a word, German and English (ADR 0079), and the words kept once stemmed: a word
// asked again, in any case, gets the very stems it got first, and nobody can change them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN_STEM_LENGTH, stems } from './stems.ts';

const CASES: [string, string[]][] = [
  ['Gärten', ['gart']],
  ['gaerten', ['gaert', 'gart']],
  ['Goethes', ['goeth', 'goth']],
  ['Verwandlungen', ['verwandl']],
  ['Werther', ['werth']],
  ['der', []],
];

test('stems: German and English, ASCII, never the word itself, never shorter than the minimum', () => {
  for (const [word, expected] of CASES) assert.deepEqual([...stems(word)].sort(), expected, word);
  for (const [word] of CASES)
    for (const stem of stems(word)) {
      assert.ok(stem.length >= MIN_STEM_LENGTH, stem);
      assert.notEqual(stem, word.toLowerCase());
    }
});

test('stems: a word asked again, in any case, gets the same stems, which no caller can change', () => {
  const first = stems('Schillers');
  assert.equal(stems('SCHILLERS'), first, 'the kept stems');
  assert.ok(Object.isFrozen(first));
  assert.throws(() => (first as string[]).push('x'), TypeError);
  // Many other words later (more than are kept at once), the stems are still the same.
  for (let i = 0; i < 25_000; i++) stems(`wort${i}ungen`);
  assert.deepEqual(stems('schillers'), first);
});
