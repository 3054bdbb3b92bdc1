import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { checkHead, DEFAULT_LIMITS, nodeServerOptions } from './limits.ts';

const head = (over: Partial<IncomingMessage>): IncomingMessage =>
  ({
    method: 'GET',
    url: '/',
    httpVersion: '1.1',
    rawHeaders: ['Host', 'h'],
    headers: { host: 'h' },
    ...over,
  }) as IncomingMessage;

test('a head within httpd limits passes', () => {
  assert.equal(checkHead(head({}), DEFAULT_LIMITS), undefined);
});

test('a request line over 8190 bytes is 414 and logs only the line', () => {
  const r = checkHead(head({ url: '/' + 'a'.repeat(8190) }), DEFAULT_LIMITS);
  assert.equal(r?.status, 414);
  assert.equal(r?.lineOnly, true);
  assert.match(r?.entry?.message ?? '', /^AH00565: /);
});

test('one field over LimitRequestFieldSize is 400 naming the field', () => {
  const r = checkHead(head({ rawHeaders: ['Host', 'h', 'X-Big', 'b'.repeat(8190)] }), DEFAULT_LIMITS);
  assert.equal(r?.status, 400);
  assert.equal(r?.entry?.message, 'AH00561: Request header exceeds LimitRequestFieldSize: X-Big');
});

test('HTTP/1.1 without Host is 400 (AH00569); HTTP/1.0 without Host is served', () => {
  const r = checkHead(head({ url: '/x', rawHeaders: [], headers: {} }), DEFAULT_LIMITS);
  assert.equal(r?.status, 400);
  assert.match(r?.entry?.message ?? '', /^AH00569: .*: \/x$/);
  assert.equal(
    checkHead(head({ httpVersion: '1.0', rawHeaders: [], headers: {} }), DEFAULT_LIMITS),
    undefined,
  );
});

test('Node enforces the timeouts; the Host check stays ours', () => {
  const o = nodeServerOptions({ ...DEFAULT_LIMITS, headersTimeoutMs: 400 });
  assert.equal(o.headersTimeout, 400);
  assert.equal(o.requireHostHeader, false);
});
