import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headerUrl } from './header-url.ts';

test('headerUrl percent-encodes what a header cannot carry, as UTF-8', () => {
  assert.equal(headerUrl('https://a.example/werke?q=faust'), 'https://a.example/werke?q=faust');
  assert.equal(headerUrl('/€'), '/%E2%82%AC');
  assert.equal(headerUrl('/ü'), '/%C3%BC');
  assert.equal(headerUrl('/\u3000 x'), '/%E3%80%80%20x');
  assert.equal(headerUrl('/a<b>"c'), '/a%3Cb%3E%22c');
  assert.equal(headerUrl('/%C3%BC'), '/%C3%BC', 'existing escapes stay');
  assert.equal(headerUrl('/\r\n'), '/%0D%0A');
  assert.equal(headerUrl('/\ud800'), '/%EF%BF%BD', 'a lone surrogate');
  assert.equal(headerUrl('/😀'), '/%F0%9F%98%80');
});
