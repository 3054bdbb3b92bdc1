import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fullName } from './urls.ts';

test('a full name joins the names present with one space', () => {
  assert.equal(
    fullName({ vorname: 'Johann Wolfgang', nachname: 'von Goethe' }),
    'Johann Wolfgang von Goethe',
  );
  assert.equal(fullName({ vorname: '', nachname: 'Homer' }), 'Homer');
  assert.equal(fullName({ vorname: 'Homer', nachname: '' }), 'Homer');
  assert.equal(fullName({ vorname: '', nachname: '' }), '');
});
