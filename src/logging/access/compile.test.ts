import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileLogFormat } from './compile.ts';
import { apacheTime } from './time.ts';
import type { AccessRecord } from './record.ts';

const record = (over: Partial<AccessRecord> = {}): AccessRecord => ({
  remoteAddr: '10.0.0.1',
  peerAddr: '10.0.0.2',
  localPort: 8080,
  startMs: Date.UTC(2026, 10, 22, 2, 32, 13),
  durationUs: 2_345_678,
  requestLine: 'GET /a%20b?x="1" HTTP/1.1',
  method: 'GET',
  target: '/a%20b?x="1"',
  protocol: 'HTTP/1.1',
  status: 200,
  bodyBytes: 0,
  user: undefined,
  requestHeader: (n) => ({ referer: '', 'user-agent': 'caf\xc3\xa9' })[n],
  responseHeader: (n) => (n === 'content-type' ? 'text/html' : undefined),
  ...over,
});

test('combined is the default Apache format', () => {
  const line = compileLogFormat('combined')(record());
  assert.equal(
    line,
    `10.0.0.1 - - ${apacheTime(record().startMs)} "GET /a%20b?x=\\"1\\" HTTP/1.1" 200 - "" "caf\\xc3\\xa9"`,
  );
});

test('every directive', () => {
  const f = compileLogFormat(
    '%h %a %{c}a %l %u %>s %s %b %B %D %T %{ms}T %m %U %q %H %p %{Content-Type}o %{X-None}i %% %!200{Referer}i',
  );
  assert.equal(
    f(record({ user: '' })),
    '10.0.0.1 10.0.0.1 10.0.0.2 - "" 200 200 - 0 2345678 2 2345 GET /a b ?x=\\"1\\" HTTP/1.1 8080 text/html - % -',
  );
  assert.equal(
    f(record({ user: 'bob smith', bodyBytes: 12 }))
      .split(' ')
      .slice(4, 9)
      .join(' '),
    'bob smith 200 200 12',
  );
});

test('%t: [dd/Mon/yyyy:HH:MM:SS ±hhmm]', () => {
  assert.match(apacheTime(Date.now()), /^\[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\]$/);
});

test('unknown directives fail at compile time, not per request', () => {
  assert.throws(() => compileLogFormat('%h %Z'), /unknown directive %Z/);
  assert.throws(() => compileLogFormat('%{User-Agent}'), /cannot parse/);
});
