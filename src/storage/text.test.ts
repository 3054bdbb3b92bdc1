import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fts5Query, spellings, tsQuery } from './fulltext.ts';
import { filingName, searchText, searchTokens, slugify, sortKey } from './text.ts';

test('slugify: lower-case ASCII, umlauts transliterated, never empty', () => {
  assert.equal(slugify('Johann Wolfgang von Goethe'), 'johann-wolfgang-von-goethe');
  assert.equal(slugify('Die Leiden des jungen Werthers'), 'die-leiden-des-jungen-werthers');
  assert.equal(slugify('Größe & Übermut — Ärger'), 'groesse-uebermut-aerger');
  assert.equal(slugify('Émile Zola, Ça, Øre, Łódź'), 'emile-zola-ca-ore-lodz');
  assert.equal(slugify('Лев Толстой'), 'lew-tolstoj');
  assert.equal(slugify('Faust.json'), 'faust-json');
  assert.equal(slugify('!!!'), 'eintrag');
  assert.equal(slugify('漢字', 'werk'), 'werk');
  assert.ok(slugify('a'.repeat(200)).length <= 80);
});

test('sort keys ignore case and accents and file particles after the name', () => {
  assert.equal(filingName('von Goethe'), 'Goethe von');
  assert.equal(filingName('de la Motte Fouqué'), 'Motte Fouqué de la');
  assert.equal(filingName('Van'), 'Van');
  const keys = [
    sortKey('Zola'),
    sortKey('ärger'),
    sortKey('Mann', 'Thomas'),
    sortKey('Mannheim', 'Anna'),
    sortKey('apfel'),
  ];
  assert.deepEqual([...keys].sort(), [
    sortKey('aerger'),
    sortKey('apfel'),
    sortKey('mann', 'thomas'),
    sortKey('mannheim', 'anna'),
    sortKey('zola'),
  ]);
});

test('search text carries umlaut variants; tokens are words only', () => {
  // … and the words' stems (stems.ts) that are not one of its spellings already.
  assert.equal(searchText('Jörg', 'Müller'), 'Jörg Müller Joerg Jorg Mueller Muller mull muell');
  assert.equal(searchText('Die Verwandlungen'), 'Die Verwandlungen verwandl');
  assert.equal(searchText('Faust'), 'Faust');
  assert.deepEqual(searchTokens(' "Faust"* OR NEAR(a b) -x; drop '), [
    'faust',
    'or',
    'near',
    'a',
    'b',
    'x',
    'drop',
  ]);
  assert.deepEqual(searchTokens('!!! ***'), []);
  assert.equal(searchTokens('a b c d e f g h i j').length, 8);
});

test('query builders quote every term', () => {
  assert.deepEqual(spellings('gö'), ['gö', 'goe', 'go']);
  assert.equal(fts5Query(['faust', 'gö']), '("faust"*) AND ("gö"* OR "goe"* OR "go"*)');
  assert.equal(tsQuery(['faust', 'gö']), "('faust':*) & ('gö':* | 'goe':* | 'go':*)");
  assert.equal(fts5Query(['a"b']), '("a""b"*)');
  assert.equal(tsQuery(["a'b\\"]), "('a''b':*)");
});
