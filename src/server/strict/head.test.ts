// Whole heads as Apache 2.4.71 (Strict) read them: what it refused, the %r and header table
// it logged, and its debug entries (recorded in test/logs/strict-cases.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strictHead, type StrictHead } from './head.ts';
import { hidePassword, normalizablePath } from './target.ts';

const H = 'GET /ok.txt HTTP/1.1\r\nHost: x\r\n';
const FAILED = { message: 'AH00567: request failed: error reading the headers' };

const ROWS: [
  name: string,
  head: string,
  expected: Partial<Extract<StrictHead, { kind: 'refused' }>> | 'accepted',
][] = [
  ['plain', H + 'User-Agent: ua\r\n\r\n', 'accepted'],
  ['obs-fold is folded, not refused', H + 'User-Agent: one\r\n  two\r\n\r\n', 'accepted'],
  ['blank lines before the request line', '\r\n\r\n' + H + '\r\n', 'accepted'],
  ['HTTP/0.9 GET has no headers', 'GET /ok.txt\r\n', 'accepted'],
  [
    'bare LF after the request line',
    'GET /ok.txt HTTP/1.1\nHost: x\r\nUser-Agent: ua\r\n\r\n',
    {
      requestLine: 'GET /ok.txt HTTP/1.1\n',
      method: undefined,
      headers: [],
      entries: [{ message: 'AH00566: request failed: malformed request line' }],
    },
  ],
  [
    'bare LF after a field: that field is not in the table yet',
    'GET /ok.txt HTTP/1.1\r\nHost: x\nUser-Agent: ua\r\n\r\n',
    {
      requestLine: 'GET /ok.txt HTTP/1.1',
      headers: [],
      entries: [
        { message: 'Failed to read request header line Host: x\n', osError: '(22)Invalid argument' },
        FAILED,
      ],
    },
  ],
  [
    'bare LF ending the head',
    H + 'User-Agent: ua\r\n\n',
    {
      headers: ['Host', 'x'],
      entries: [
        { message: 'Failed to read request header line \n', osError: '(22)Invalid argument' },
        FAILED,
      ],
    },
  ],
  [
    'control byte in a value',
    H + 'User-Agent: u\x01a\r\nReferer: http://r/\r\n\r\n',
    {
      headers: ['Host', 'x'],
      entries: [{ message: 'AH02427: Request header value is malformed: u\x01a' }, FAILED],
    },
  ],
  [
    'DEL in a value',
    H + 'User-Agent: u\x7fa\r\n\r\n',
    {
      headers: ['Host', 'x'],
      entries: [{ message: 'AH02427: Request header value is malformed: u\x7fa' }, FAILED],
    },
  ],
  [
    'NUL in a value: the line fails to read, the field before it is not in the table yet',
    H + 'User-Agent: u\0a\r\nReferer: http://r/\r\n\r\n',
    {
      headers: [],
      entries: [
        { message: 'Failed to read request header line User-Agent: u', osError: '(22)Invalid argument' },
        FAILED,
      ],
    },
  ],
  [
    'a field without a colon: the fields before it are logged',
    H + 'Referer: http://r/\r\nUser-Agent ua\r\n\r\n',
    {
      headers: ['Host', 'x', 'Referer', 'http://r/'],
      entries: [{ message: 'AH02426: Request header field name is malformed: User-Agent ua' }, FAILED],
    },
  ],
  [
    'space before the colon',
    H + 'User-Agent : ua\r\n\r\n',
    { entries: [{ message: 'AH02426: Request header field name is malformed: User-Agent : ua' }, FAILED] },
  ],
  [
    'empty field name',
    H + ': ua\r\n\r\n',
    { entries: [{ message: 'AH02426: Request header field name is malformed: : ua' }, FAILED] },
  ],
  [
    'folding before the first field',
    'GET /ok.txt HTTP/1.1\r\n Host: x\r\n\r\n',
    {
      headers: [],
      entries: [{ message: 'AH03442: Line folding encountered before first header line' }, FAILED],
    },
  ],
  [
    'an empty folded line',
    H + 'User-Agent: one\r\n \r\n\r\n',
    { headers: ['Host', 'x'], entries: [{ message: 'AH03443: Empty folded line encountered' }, FAILED] },
  ],
  [
    'a bad request line: no header is read',
    'GET  /ok.txt HTTP/1.1\r\nHost: x\r\nReferer: http://r/\r\n\r\n',
    {
      requestLine: 'GET /ok.txt HTTP/1.1',
      method: 'GET',
      headers: [],
      entries: [
        {
          message: 'AH03448: HTTP Request Line; Excess whitespace (disallowed by HttpProtocolOptions Strict)',
        },
      ],
    },
  ],
  [
    'a password in the target is hidden in %r',
    'GET http://u:p@x/ok.txt HTTP/1.1\r\nHost: x\r\n\r\n',
    { requestLine: 'GET http://u:XXXXXXXX@x/ok.txt HTTP/1.1' },
  ],
];

test('heads: what httpd refuses, and what it had read by then', () => {
  for (const [name, head, expected] of ROWS) {
    const got = strictHead(head);
    if (expected === 'accepted') {
      assert.equal(got.kind, 'accepted', name);
      continue;
    }
    assert.equal(got.kind, 'refused', name);
    for (const [key, value] of Object.entries(expected))
      assert.deepEqual((got as Record<string, unknown>)[key], value, `${name}: ${key}`);
  }
});

test('a head still arriving is undecided; closed after a complete line it is refused', () => {
  assert.equal(strictHead('GET /ok.txt HT').kind, 'undecided');
  assert.equal(strictHead('GET /ok.txt HT', true).kind, 'undecided');
  assert.equal(strictHead(H + 'User-Agent: ua\r\n').kind, 'undecided');
  const closed = strictHead(H + 'User-Agent: ua\r\n', true);
  assert.equal(closed.kind, 'refused');
  assert.deepEqual(closed.kind === 'refused' && closed.headers, ['Host', 'x']);
  assert.equal(strictHead('GET /' + 'a'.repeat(9000) + ' HTTP/1.1\r\n\r\n').kind, 'undecided');
});

test('a bad field is refused even before the line after it arrives', () => {
  const got = strictHead(H + 'User-Agent: u\x01a\r\n');
  assert.equal(got.kind, 'refused');
});

test('paths that climb above the root or hold a bad escape (AH10244)', () => {
  const rows: [string, boolean][] = [
    ['/ok.txt', true],
    ['/a/../ok.txt', true],
    ['/a/./b/../../c', true],
    ['/..', false],
    ['/../../etc/passwd', false],
    ['/a/../../x', false],
    ['/a/%2e%2e/%2E%2e/x', false],
    ['/a/.%2e/b', true],
    ['/.%2E/x', false],
    ['//..//x', false],
    ['/a%zz', false],
    ['/a%2', false],
    ['/caf%C3%A9', true],
    ['/...', true],
    ['*', true],
    ['ok.txt', false],
  ];
  for (const [path, ok] of rows) assert.equal(normalizablePath(path), ok, path);
});

test('mod_log_config hides a password in %r', () => {
  assert.equal(
    hidePassword('GET', 'http://u:p@x/ok.txt', 'HTTP/1.1'),
    'GET http://u:XXXXXXXX@x/ok.txt HTTP/1.1',
  );
  assert.equal(
    hidePassword('GET', 'http://u:@x:8080/a?b#c', 'HTTP/1.1'),
    'GET http://u:XXXXXXXX@x:8080/a?b#c HTTP/1.1',
  );
  assert.equal(hidePassword('GET', 'http://u:p@x:80/', 'HTTP/1.1'), 'GET http://u:XXXXXXXX@x/ HTTP/1.1');
  assert.equal(hidePassword('GET', 'http://u@x/', 'HTTP/1.1'), undefined);
  assert.equal(hidePassword('GET', '/a:b@c', 'HTTP/1.1'), undefined);
});
