import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hash, initialsOfName, initialsOfSlug, portraitSvg } from './portrait.ts';

test('initials', () => {
  assert.equal(initialsOfName('Johann Wolfgang', 'von Goethe'), 'JG');
  assert.equal(initialsOfName('', ''), '?');
  assert.equal(initialsOfSlug('thomas-mann'), 'TM');
  assert.equal(initialsOfSlug('goethe'), 'G');
});

test('portraits are deterministic, differ by slug, and escape their text', () => {
  assert.equal(portraitSvg('goethe', 'JG'), portraitSvg('goethe', 'JG'));
  assert.notEqual(hash('goethe') % 360, hash('schiller') % 360);
  assert.notEqual(portraitSvg('goethe', 'JG'), portraitSvg('schiller', 'JG'));
  assert.match(portraitSvg('x', '<&'), />&lt;&amp;<\/text>/);
});
