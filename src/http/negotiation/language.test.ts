import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateLanguage } from './language.ts';

const table: [string | undefined, 'de' | 'en'][] = [
  [undefined, 'de'],
  ['', 'de'],
  ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'de'],
  ['en-US,en;q=0.9', 'en'],
  ['en-GB', 'en'],
  ['EN', 'en'],
  ['fr-FR,fr;q=0.9', 'de'],
  ['fr, en;q=0.5', 'en'],
  ['en;q=0.5, de;q=0.6', 'de'],
  ['*', 'de'],
  ['en;q=0', 'de'],
  ['garbage;;;', 'de'],
];

for (const [header, expected] of table) {
  test(`Accept-Language ${JSON.stringify(header)} → ${expected}`, () => {
    assert.equal(negotiateLanguage(header), expected);
  });
}
