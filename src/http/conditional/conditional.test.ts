import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etagOf, lastModifiedToSend, noneMatch, notModified, strongMatch } from './conditional.ts';

test('etagOf is strong, stable and differs per body', () => {
  assert.match(etagOf('a'), /^"[A-Za-z0-9_-]+"$/);
  assert.equal(etagOf('a'), etagOf(Buffer.from('a')));
  assert.notEqual(etagOf('<a/>'), etagOf('{"a":1}'));
});

test('If-None-Match: weak comparison, lists, *', () => {
  const tag = etagOf('x');
  assert.ok(noneMatch(tag, tag));
  assert.ok(noneMatch(`W/${tag}`, tag));
  assert.ok(noneMatch(`"other", ${tag}`, tag));
  assert.ok(noneMatch('*', tag));
  assert.ok(!noneMatch('"other"', tag));
});

test('If-Match: strong comparison', () => {
  const tag = etagOf('x');
  assert.ok(strongMatch(tag, tag));
  assert.ok(!strongMatch(`W/${tag}`, tag));
  assert.ok(strongMatch('*', tag));
});

test('If-Modified-Since at one-second precision, ignored when If-None-Match is present', () => {
  const modified = new Date('2024-05-01T10:00:00.500Z');
  const since = (ims: string) =>
    notModified({ ifNoneMatch: undefined, ifModifiedSince: ims }, '"x"', modified);
  assert.ok(since('Wed, 01 May 2024 10:00:00 GMT'));
  assert.ok(since('Thu, 02 May 2024 10:00:00 GMT'));
  assert.ok(!since('Wed, 01 May 2024 09:59:59 GMT'));
  assert.ok(!since('not a date'));
  assert.ok(
    !notModified({ ifNoneMatch: '"y"', ifModifiedSince: 'Thu, 02 May 2024 10:00:00 GMT' }, '"x"', modified),
  );
  assert.ok(
    !notModified(
      { ifNoneMatch: undefined, ifModifiedSince: 'Thu, 02 May 2024 10:00:00 GMT' },
      '"x"',
      undefined,
    ),
  );
});

test('a version whose second is not over: no Last-Modified, and If-Modified-Since never gives 304', () => {
  const modified = new Date('2024-05-01T10:00:00.500Z');
  const sameSecond = Date.parse('2024-05-01T10:00:00.900Z');
  const nextSecond = Date.parse('2024-05-01T10:00:01.000Z');
  assert.equal(lastModifiedToSend(modified, sameSecond), undefined);
  assert.equal(lastModifiedToSend(modified, nextSecond), modified);
  const headers = { ifNoneMatch: undefined, ifModifiedSince: 'Wed, 01 May 2024 10:00:00 GMT' };
  // A second write at 10:00:00.700 would carry the same date: no 304 until the second is over.
  assert.ok(!notModified(headers, '"x"', modified, sameSecond));
  assert.ok(notModified(headers, '"x"', modified, nextSecond));
});
