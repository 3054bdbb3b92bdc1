import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskResetLinks } from './mail.ts';

test('a reset link’s token is masked in both URL forms; other targets stay as they are', () => {
  assert.equal(maskResetLinks('/passwort-neu/abcDEF_123'), '/passwort-neu/*****');
  assert.equal(maskResetLinks('/passwort-neu?token=abc&x=1'), '/passwort-neu/*****');
  assert.equal(maskResetLinks('/katalog/passwort-neu/abc'), '/katalog/passwort-neu/*****');
  assert.equal(maskResetLinks('http://h/passwort-neu/abc'), 'http://h/passwort-neu/*****');
  assert.equal(maskResetLinks('/passwort-neu'), '/passwort-neu/*****');
  assert.equal(maskResetLinks('/personen/goethe.json'), '/personen/goethe.json');
  assert.equal(maskResetLinks('/passwort-neuer/abc'), '/passwort-neuer/abc');
});
