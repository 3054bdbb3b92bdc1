import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedDetail, MAX_DETAIL_LENGTH, parserMessage } from './bounded-detail.ts';
import { HttpError } from './http-error.ts';

test('a short detail is kept; a long one is cut and says how much was left out', () => {
  assert.equal(boundedDetail('kurz'), 'kurz');
  const long = 'x'.repeat(MAX_DETAIL_LENGTH + 500);
  assert.equal(boundedDetail(long), `${'x'.repeat(MAX_DETAIL_LENGTH)}… (500 more characters)`);
  assert.equal(parserMessage('y'.repeat(201)), `${'y'.repeat(200)}… (1 more characters)`);
});

test('a surrogate pair is never cut in two', () => {
  const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
  const cut = boundedDetail(text, 10);
  assert.equal(cut, `${'a'.repeat(9)}… (12 more characters)`);
  assert.ok(cut.isWellFormed());
});

test('every HttpError carries a bounded detail, as its message too', () => {
  const error = new HttpError('SHELFMARK_BODY_MALFORMED', { detail: 'z'.repeat(5000) });
  assert.ok((error.detail ?? '').length < MAX_DETAIL_LENGTH + 40);
  assert.equal(error.message, error.detail);
});
