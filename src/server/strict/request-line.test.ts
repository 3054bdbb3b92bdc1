// Each row is a request line sent to Apache 2.4.71 (Debian 12, HttpProtocolOptions Strict) and
// the %r and debug entry it wrote (test/logs/strict-cases.json holds the whole recordings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestLine } from './request-line.ts';

const ROWS: [line: string, theRequest: string, error: string | undefined][] = [
  ['GET /ok.txt HTTP/1.1', 'GET /ok.txt HTTP/1.1', undefined],
  ['GET /ok.txt HTTP/2.0', 'GET /ok.txt HTTP/2.0', undefined],
  ['GET /ok.txt', 'GET /ok.txt', undefined],
  ['OPTIONS * HTTP/1.1', 'OPTIONS * HTTP/1.1', undefined],
  ['GET http://x/ok.txt?q=1 HTTP/1.1', 'GET http://x/ok.txt?q=1 HTTP/1.1', undefined],
  ['CONNECT example.com:443 HTTP/1.1', 'CONNECT example.com:443 HTTP/1.1', undefined],
  ['GET /caf\xc3\xa9 HTTP/1.1', 'GET /caf\xc3\xa9 HTTP/1.1', undefined],
  ['get /x HTTP/1.1', 'get /x HTTP/1.1', undefined], // a token: 501 comes later, from the handler
  [
    'GET  /ok.txt HTTP/1.1',
    'GET /ok.txt HTTP/1.1',
    'AH03448: HTTP Request Line; Excess whitespace (disallowed by HttpProtocolOptions Strict)',
  ],
  [
    'GET /a b.txt HTTP/1.1',
    'GET /a b.txt',
    'AH03448: HTTP Request Line; Excess whitespace (disallowed by HttpProtocolOptions Strict)',
  ],
  [
    'GET /ok.txt HTTP/1.1 ',
    'GET /ok.txt HTTP/1.1',
    'AH03448: HTTP Request Line; Excess whitespace (disallowed by HttpProtocolOptions Strict)',
  ],
  [
    'GET /ok.txt HTTP/1.1 x',
    'GET /ok.txt HTTP/1.1',
    'AH03448: HTTP Request Line; Excess whitespace (disallowed by HttpProtocolOptions Strict)',
  ],
  ['GET\t/ok.txt HTTP/1.1', 'GET /ok.txt HTTP/1.1', 'AH03447: HTTP Request Line; Invalid whitespace'],
  ['  GET /ok.txt HTTP/1.1', 'GET /ok.txt HTTP/1.1', 'AH03447: HTTP Request Line; Invalid whitespace'],
  [
    'GET /a\x01b HTTP/1.1',
    'GET /a\x01b HTTP/1.1',
    "AH03454: HTTP Request Line; URI incorrectly encoded: '/a\x01b'",
  ],
  [
    'GET /a\x7fb HTTP/1.1',
    'GET /a\x7fb HTTP/1.1',
    "AH03454: HTTP Request Line; URI incorrectly encoded: '/a\x7fb'",
  ],
  ['GET', 'GET', "AH03454: HTTP Request Line; URI incorrectly encoded: ''"],
  [
    'GET /ok.txt http/1.1',
    'GET /ok.txt http/1.1',
    "AH02418: HTTP Request Line; Unrecognized protocol 'http/1.1' (perhaps whitespace was injected?)",
  ],
  [
    'GET /ok.txt HTTP/1.10',
    'GET /ok.txt HTTP/1.10',
    "AH02418: HTTP Request Line; Unrecognized protocol 'HTTP/1.10' (perhaps whitespace was injected?)",
  ],
  [
    'GET /ok.txt FOO/1.1',
    'GET /ok.txt FOO/1.1',
    "AH02418: HTTP Request Line; Unrecognized protocol 'FOO/1.1' (perhaps whitespace was injected?)",
  ],
  [
    'GET /ok.txt HTTP/0.9',
    'GET /ok.txt HTTP/0.9',
    "AH02418: HTTP Request Line; Unrecognized protocol 'HTTP/0.9' (perhaps whitespace was injected?)",
  ],
  ['G(T /ok.txt HTTP/1.1', 'G(T /ok.txt HTTP/1.1', "AH03445: HTTP Request Line; Invalid method token: 'G(T'"],
  [
    'HEAD /ok.txt',
    'HEAD /ok.txt',
    "AH03444: HTTP Request Line; Invalid method token: 'HEAD' (only GET is allowed for HTTP/0.9 requests)",
  ],
  ['GET ok.txt HTTP/1.1', 'GET ok.txt HTTP/1.1', "AH03450: HTTP Request Line; Unable to parse URI: 'ok.txt'"],
  [
    'GET /ok.txt#frag HTTP/1.1',
    'GET /ok.txt#frag HTTP/1.1',
    'AH02421: HTTP Request Line; URI must not contain a fragment',
  ],
  [
    'GET /a?q#f HTTP/1.1',
    'GET /a?q#f HTTP/1.1',
    'AH02421: HTTP Request Line; URI must not contain a fragment',
  ],
  [
    'GET http://u:p@x/ok.txt HTTP/1.1',
    'GET http://u:p@x/ok.txt HTTP/1.1',
    'AH02422: HTTP Request Line; URI must not contain a username/password',
  ],
];

test("request lines: httpd's the_request and its refusal, row by row", () => {
  for (const [line, theRequest, error] of ROWS) {
    const parsed = parseRequestLine(line);
    assert.equal(parsed.theRequest, theRequest, JSON.stringify(line));
    assert.equal(parsed.error, error, JSON.stringify(line));
  }
});

test('method, target and protocol are the parts httpd recognised', () => {
  assert.deepEqual(
    [parseRequestLine('GET  /x HTTP/1.1')].map(({ method, target, protocol }) => [method, target, protocol]),
    [['GET', '/x', 'HTTP/1.1']],
  );
  const nine = parseRequestLine('GET /x');
  assert.equal(nine.protocol, '');
  assert.equal(nine.error, undefined);
});
