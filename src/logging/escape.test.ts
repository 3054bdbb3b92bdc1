import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeLogItem, escapeErrorItem, utf8Binary } from './escape.ts';

test('escapes like ap_escape_logitem, on bytes', () => {
  assert.equal(escapeLogItem('a"b\\c'), 'a\\"b\\\\c');
  assert.equal(escapeLogItem('\b\t\n\v\r\f\x1b\x7f\x00'), '\\b\\t\\n\\v\\r\\x0c\\x1b\\x7f\\x00');
  assert.equal(escapeLogItem(utf8Binary('café')), 'caf\\xc3\\xa9');
  assert.equal(escapeLogItem('\xff'), '\\xff');
  assert.equal(escapeLogItem('plain text %22 ok'), 'plain text %22 ok');
});

test('the error log leaves " alone', () => {
  assert.equal(escapeErrorItem('quote" back\\ tab\t'), 'quote" back\\\\ tab\\t');
});
