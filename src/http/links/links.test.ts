import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { compileTrust, createLinks, parseBase, requestBase } from './links.ts';

const BASE = parseBase('https://library.example/katalog/');

function raw(peer: string, headers: Record<string, string>): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

test('links keep the base prefix', () => {
  const links = createLinks(BASE);
  assert.equal(links.absolute('/werke/faust'), 'https://library.example/katalog/werke/faust');
  assert.equal(links.relative('/werke/faust'), '/katalog/werke/faust');
  assert.equal(links.relative('/'), '/katalog/');
  assert.equal(createLinks(parseBase('http://localhost:3000')).absolute('/'), 'http://localhost:3000/');
});

test('forwarded headers count only from a trusted peer', () => {
  const trust = compileTrust(['10.0.0.0/8', '127.0.0.1']);
  const headers = { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'proxy.example:8080' };
  assert.equal(requestBase(BASE, raw('10.1.2.3', headers), trust).origin, 'http://proxy.example:8080');
  assert.equal(requestBase(BASE, raw('192.168.1.1', headers), trust).origin, 'https://library.example');
  assert.equal(requestBase(BASE, raw('10.1.2.3', headers), trust).basePath, '/katalog');
});

test('a forwarded host that is not a host is ignored, the first of several values used', () => {
  const trust = compileTrust(['127.0.0.1']);
  const evil = { 'x-forwarded-host': 'evil.example/path"><script>', 'x-forwarded-proto': 'javascript' };
  assert.equal(requestBase(BASE, raw('127.0.0.1', evil), trust).origin, 'https://library.example');
  const chain = { 'x-forwarded-host': 'a.example, b.example', 'x-forwarded-proto': 'https, http' };
  assert.equal(requestBase(BASE, raw('127.0.0.1', chain), trust).origin, 'https://a.example');
});

test('only http and https bases', () => {
  assert.throws(() => parseBase('ftp://x.example/'));
});
