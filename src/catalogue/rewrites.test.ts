import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogueRewrites } from './rewrites.ts';

/** Applies the table the way mod_rewrite does: first matching rule wins. */
function rewrite(path: string): string | null {
  for (const rule of catalogueRewrites)
    if (rule.pattern.test(path)) return path.replace(rule.pattern, rule.target);
  return null;
}

test('readable paths map to the script handlers', () => {
  assert.equal(rewrite('/personen/goethe'), '/person?slug=goethe');
  assert.equal(rewrite('/werke/faust'), '/werk?slug=faust');
  assert.equal(rewrite('/ausleihen/42'), '/ausleihen?benutzer=42');
  assert.equal(rewrite('/personen/anna-berger/benachrichtigungen'), '/benachrichtigungen?slug=anna-berger');
});

test('the overdue loans are no user: only digits name one (ADR 0092)', () => {
  assert.equal(rewrite('/ausleihen/ueberfaellig'), null);
});

test('collections, suffixes, deeper paths and non-numeric users are not rewritten', () => {
  for (const p of [
    '/personen',
    '/werke',
    '/',
    '/personen/goethe.json',
    '/werke/a/b',
    '/ausleihen/abc',
    '/personen/',
  ]) {
    assert.equal(rewrite(p), null, p);
  }
});
