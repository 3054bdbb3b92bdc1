import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utf8 } from './utf8.ts';

test('utf8 writes the bytes Buffer.from writes, for every kind of string', () => {
  const pieces = [
    '',
    'ascii',
    'Grüße',
    '–',
    'Zwei – Drei',
    '😀',
    'é😀–',
    '\u0000\uffff\ufffe',
    '\ud800',
    'a\udc00b–',
  ];
  // Alone, joined in every order of two, and inside a page-sized rope.
  const texts = [...pieces, ...pieces.flatMap((a) => pieces.map((b) => a + b))];
  let rope = '';
  for (let i = 0; i < 400; i++) rope += `<li>${pieces[i % pieces.length]!}</li>`;
  texts.push(rope, rope.replace(/[\ud800-\udfff]/g, ''));
  for (const text of texts)
    assert.deepEqual(utf8(text), Buffer.from(text), JSON.stringify(text.slice(0, 40)));
});
