import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { dispatchedRefusal, pathRefusal, rejectedRefusal } from './strict-refusal.ts';

const req = (method: string, url: string) => ({ method, url }) as IncomingMessage;
const bytes = (s: string) => Buffer.from(s, 'latin1');

test('a dispatched head: refused only when httpd would, and only when it is the parsed one', () => {
  const ok = 'GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n';
  assert.equal(dispatchedRefusal(bytes(ok), req('GET', '/a?b=1')), undefined);
  const twoSpaces = dispatchedRefusal(
    bytes('GET  /a HTTP/1.1\r\nHost: x\r\nReferer: r\r\n\r\n'),
    req('GET', '/a'),
  );
  assert.equal(twoSpaces?.status, 400);
  assert.deepEqual(twoSpaces?.seen?.headers, []);
  assert.equal(twoSpaces?.seen?.requestLine, 'GET /a HTTP/1.1');
  assert.equal(twoSpaces?.beforeAuth, true);
  assert.match(twoSpaces?.entry?.message ?? '', /^AH03448: /);
  // The kept bytes are not this request's head (say, after a chunked body): no verdict.
  assert.equal(dispatchedRefusal(bytes('GET  /a HTTP/1.1\r\n\r\n'), req('GET', '/b')), undefined);
  assert.equal(dispatchedRefusal(bytes(''), req('GET', '/a')), undefined);
  assert.equal(dispatchedRefusal(bytes('HEAD /a\r\n\r\n'), req('HEAD', '/a'))?.status, 400);
  assert.equal(dispatchedRefusal(bytes('GET /a#f HTTP/1.1\r\n\r\n'), req('GET', '/a#f'))?.status, 400);
});

test('paths: AH10244 at core:error for a climb above the root or a bad escape', () => {
  const r = pathRefusal(req('GET', '/static/../../etc/passwd'));
  assert.deepEqual(r?.entry, {
    level: 'error',
    module: 'core',
    message: 'AH10244: invalid URI path (/static/../../etc/passwd)',
  });
  assert.equal(pathRefusal(req('GET', '/a%zz'))?.status, 400);
  assert.equal(pathRefusal(req('GET', '/a/../b')), undefined);
  assert.equal(pathRefusal(req('GET', '/a?x=/../../')), undefined);
  assert.equal(pathRefusal(req('GET', 'http://x/../a')) !== undefined, true);
  assert.equal(pathRefusal(req('CONNECT', 'x:443')), undefined);
  assert.equal(pathRefusal(req('OPTIONS', '*')), undefined);
});

test("a head Node rejected: httpd's refusal when it has one, else none", () => {
  assert.equal(
    rejectedRefusal(bytes('GET /a HTTP/1.1\nHost: x\r\n\r\n'), false)?.seen?.requestLine,
    'GET /a HTTP/1.1\n',
  );
  // Raw UTF-8 in the path: httpd reads the head whole, then refuses the bad escape.
  assert.match(
    rejectedRefusal(bytes('GET /caf\xc3\xa9%zz HTTP/1.1\r\nHost: x\r\n\r\n'), false)?.entry?.message ?? '',
    /^AH10244/,
  );
  assert.equal(rejectedRefusal(bytes('GET /caf\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n'), false), undefined);
  assert.equal(rejectedRefusal(bytes('GET /a HT'), true), undefined);
});
