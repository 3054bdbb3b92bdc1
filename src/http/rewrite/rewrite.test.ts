import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MalformedPathError, rewrite, stripBase, stripSuffix, withSuffix } from './rewrite.ts';
import { REMEMBERED_TARGET_LENGTH, resolveUrl, urlResolver, type UrlSpace } from './resolve.ts';

const RULES = [
  { pattern: /^\/personen\/([^/.]+)$/, target: '/person?slug=$1' },
  { pattern: /^\/ausleihen\/(\d+)\/(\d+)$/, target: '/ausleihe?benutzer=$1&id=$2' },
  { pattern: /^\/ausleihen\/(\d+)$/, target: '/ausleihen?benutzer=$1' },
];

const rewrites: [string, string][] = [
  ['/personen/goethe', '/person?slug=goethe'],
  ['/personen/g%C3%B6the', '/person?slug=g%C3%B6the'],
  ['/personen/a%26b%3Dc', '/person?slug=a%26b%3Dc'],
  ['/personen/a&b=c', '/person?slug=a%26b%3Dc'],
  ['/personen/goethe/werke', '/personen/goethe/werke'],
  ['/ausleihen/7/12', '/ausleihe?benutzer=7&id=12'],
  ['/ausleihen/7', '/ausleihen?benutzer=7'],
  ['/ausleihen/x', '/ausleihen/x'],
  ['/personen', '/personen'],
  ['/', '/'],
];
for (const [path, expected] of rewrites) {
  test(`rewrite ${path} → ${expected}`, () => assert.equal(rewrite(path, RULES), expected));
}

test('a capture with broken percent-encoding is refused, not passed on', () => {
  assert.throws(() => rewrite('/personen/%E0%A4%A', RULES), /malformed/);
});

test('the base path prefix', () => {
  assert.equal(stripBase('/katalog/personen', '/katalog'), '/personen');
  assert.equal(stripBase('/katalog', '/katalog'), '/');
  assert.equal(stripBase('/katalog/', '/katalog'), '/');
  assert.equal(stripBase('/katalogue/x', '/katalog'), null);
  assert.equal(stripBase('/personen', '/katalog'), null);
  assert.equal(stripBase('/personen', ''), '/personen');
});

test('only .html, .xml and .json are suffixes', () => {
  assert.deepEqual(stripSuffix('/personen/goethe.json'), { path: '/personen/goethe', suffix: 'json' });
  assert.deepEqual(stripSuffix('/personen.xml'), { path: '/personen', suffix: 'xml' });
  assert.deepEqual(stripSuffix('/index.html'), { path: '/', suffix: 'html' });
  assert.deepEqual(stripSuffix('/bild.jpg'), { path: '/bild.jpg', suffix: null });
  assert.deepEqual(stripSuffix('/personen/goethe.JSON'), { path: '/personen/goethe.JSON', suffix: null });
  assert.deepEqual(stripSuffix('/personen/goethe.json.xml'), {
    path: '/personen/goethe.json',
    suffix: 'xml',
  });
});

test('withSuffix puts the suffix before the query; the root is /index', () => {
  assert.equal(withSuffix('/personen/goethe', 'json'), '/personen/goethe.json');
  assert.equal(withSuffix('/werke?q=faust', 'xml'), '/werke.xml?q=faust');
  assert.equal(withSuffix('/', 'html'), '/index.html');
});

const SPACE: UrlSpace = { basePath: '/katalog', rules: RULES, passthrough: ['/static/', '/schema/'] };

test('resolveUrl: suffix, rewrite and query merge (a rule parameter wins)', () => {
  const r = resolveUrl('/katalog/personen/goethe.json?slug=evil&x=1', SPACE);
  assert.equal(r.kind, 'resource');
  if (r.kind !== 'resource') return;
  assert.equal(r.path, '/personen/goethe');
  assert.equal(r.suffix, 'json');
  assert.equal(r.routedUrl, '/person?slug=goethe&x=1');
  assert.deepEqual([...r.query.getAll('slug')], ['goethe']);
  assert.equal(r.clientQuery.get('slug'), 'evil');
});

test('resolveUrl: outside the base, unknown ?format= → not found; * → star', () => {
  assert.deepEqual(resolveUrl('/personen/goethe', SPACE), { kind: 'not-found', why: 'outside-base' });
  assert.deepEqual(resolveUrl('/katalog/personen?format=pdf', SPACE), {
    kind: 'not-found',
    why: 'unknown-format',
  });
  assert.deepEqual(resolveUrl('/katalog/personen?format=', SPACE), {
    kind: 'not-found',
    why: 'unknown-format',
  });
  assert.deepEqual(resolveUrl('*', SPACE), { kind: 'star' });
  assert.equal(resolveUrl('/katalog/personen/%E0%A4%A', SPACE).kind, 'bad-request');
});

test('resolveUrl: ?format= is remembered; passthrough paths keep their suffix', () => {
  const r = resolveUrl('/katalog/personen?format=xml', SPACE);
  assert.equal(r.kind === 'resource' && r.formatParam, 'xml');
  assert.deepEqual(resolveUrl('/katalog/schema/person.json?x', SPACE), {
    kind: 'passthrough',
    path: '/schema/person.json',
    routedUrl: '/schema/person.json?x',
  });
});

test('a capture is decoded and encoded again unless that leaves it unchanged (the shortcut agrees)', () => {
  const rules = [{ pattern: /^\/p\/([^]+)$/, target: '/p?slug=$1' }];
  for (const code of Array.from({ length: 0x80 }, (_, i) => i)) {
    const c = String.fromCharCode(code);
    if (c === '/' || c === '?' || c === '#' || c === '%') continue;
    assert.equal(rewrite(`/p/a${c}b`, rules), `/p?slug=${encodeURIComponent(`a${c}b`)}`, JSON.stringify(c));
  }
  assert.equal(rewrite('/p/g%C3%B6the', rules), '/p?slug=g%C3%B6the');
  assert.equal(rewrite('/p/a%26b', rules), '/p?slug=a%26b');
  assert.throws(() => rewrite('/p/a%zz', rules), MalformedPathError);
});

test('urlResolver answers as resolveUrl, and the same object for a target asked for again', () => {
  const resolve = urlResolver(SPACE, 3);
  const targets = ['/katalog/personen/goethe.json?x=1', '/katalog/personen?format=pdf', '*', '/elsewhere'];
  for (const target of targets) assert.deepEqual(resolve(target), resolveUrl(target, SPACE), target);
  // The last three are held (room for 3): asked again, the very same answer.
  for (const target of targets.slice(1)) assert.equal(resolve(target), resolve(target), target);
  // The first went when the fourth came: a new answer, equal to the old one.
  const again = resolve(targets[0]!);
  assert.deepEqual(again, resolveUrl(targets[0]!, SPACE));
  assert.equal(resolve(targets[0]!), again, 'held again');
  // A long target is resolved each time, never held.
  const long = `/katalog/werke?q=${'a'.repeat(REMEMBERED_TARGET_LENGTH)}`;
  assert.deepEqual(resolve(long), resolveUrl(long, SPACE));
  assert.notEqual(resolve(long), resolve(long));
});
