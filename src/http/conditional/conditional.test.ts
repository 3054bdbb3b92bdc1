import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etagOf, noneMatch, notModified, strongMatch } from './conditional.ts';

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
