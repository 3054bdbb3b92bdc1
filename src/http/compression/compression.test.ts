import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseEncoding } from './accept-encoding.ts';
import { compress, encodedEtag, isCompressible } from './compress.ts';
import { noneMatch, strongMatch } from '../conditional/conditional.ts';

test('Accept-Encoding: q-values decide, brotli wins a tie, * and x-gzip count, q=0 excludes', () => {
  const cases: [string | undefined, string | null][] = [
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['BR;Q=1, GZIP;q=1', 'br'],
    ['gzip;q=0, br;q=0', null],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0.5', 'gzip'],
    ['*, br;q=0', 'gzip'],
    ['br;q=nonsense', null],
    ['deflate', null],
  ];
  for (const [header, expected] of cases) assert.equal(chooseEncoding(header), expected, String(header));
});

test('compressible types are the text ones, never the event stream', () => {
  for (const type of [
    'text/html; charset=utf-8',
    'application/json; charset=utf-8',
    'application/problem+json',
    'application/problem+xml',
    'application/xml; charset=utf-8',
    'application/schema+json; charset=utf-8',
    'image/svg+xml',
    'text/css',
  ])
    assert.ok(isCompressible(type), type);
  for (const type of [undefined, 'text/event-stream', 'image/png', 'application/octet-stream'])
    assert.ok(!isCompressible(type), String(type));
});

test('both codings round-trip; a list-like body shrinks to a fraction', () => {
  const body = JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({
      titel: `Werk ${i}`,
      url: `https://library.example/werke/werk-${i}`,
    })),
  );
  assert.equal(gunzipSync(compress(body, 'gzip')).toString(), body);
  assert.equal(brotliDecompressSync(compress(body, 'br')).toString(), body);
  assert.ok(compress(body, 'br').byteLength < body.length / 4);
});

test('each coding has its own ETag; If-None-Match and If-Match ignore the coding suffix', () => {
  const tag = '"abcdefghijklmnopqrstuvwxyz0"';
  assert.equal(encodedEtag(tag, 'gzip'), '"abcdefghijklmnopqrstuvwxyz0-gzip"');
  assert.equal(encodedEtag(tag, 'br'), '"abcdefghijklmnopqrstuvwxyz0-br"');
  assert.equal(encodedEtag(`W/${tag}`, 'br'), 'W/"abcdefghijklmnopqrstuvwxyz0-br"');
  assert.ok(noneMatch(encodedEtag(tag, 'gzip'), encodedEtag(tag, 'br')));
  assert.ok(noneMatch(encodedEtag(tag, 'gzip'), tag));
  assert.ok(strongMatch(encodedEtag(tag, 'gzip'), tag));
  assert.ok(!strongMatch('"other-gzip"', tag));
  assert.ok(!noneMatch('"abcdefghijklmnopqrstuvwxyz0-deflate"', tag));
});
