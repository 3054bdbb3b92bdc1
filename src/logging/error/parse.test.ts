import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { formatErrorLine } from './format.ts';
import { messageLines, parseErrorLine, unescapeErrorItem, type ErrorLogLine } from './parse.ts';
import { APACHE_DIR } from '../../../test/support/shared.ts';

/** The local wall clock of the ISO time, without the offset (which depends on the test's TZ). */
const wall = (line: ErrorLogLine): string => ('time' in line ? line.time.slice(0, 26) : 'raw');
const fields = (line: ErrorLogLine): Record<string, unknown> => {
  const { time: _time, ...rest } = line as { time: string };
  return rest;
};

const TABLE: readonly [string, string, Record<string, unknown>][] = [
  [
    'request entry with referer',
    '[Sun Nov 02 02:32:29.467118 2026] [php:warn] [pid 18307:tid 18307] [client 127.0.0.1:53314] PHP Warning:  Undefined variable $x in /srv/www/htdocs/warning.php on line 5, referer: http://example.com/from?x="y"',
    {
      module: 'php',
      level: 'warn',
      pid: 18307,
      tid: 18307,
      client: '127.0.0.1:53314',
      message: 'PHP Warning:  Undefined variable $x in /srv/www/htdocs/warning.php on line 5',
      referer: 'http://example.com/from?x="y"',
    },
  ],
  [
    'notice without client, seed shape [pid P]',
    '[Sun Nov 02 02:32:29.000001 2026] [mpm_prefork:notice] [pid 1] AH00169: caught SIGTERM, shutting down',
    { module: 'mpm_prefork', level: 'notice', pid: 1, message: 'AH00169: caught SIGTERM, shutting down' },
  ],
  [
    'debug source location before the client',
    "[Sun Nov 02 02:32:29.467118 2026] [core:debug] [pid 7:tid 8] protocol.c(919): [client ::1:4000] AH03454: HTTP Request Line; URI incorrectly encoded: ''",
    {
      module: 'core',
      level: 'debug',
      pid: 7,
      tid: 8,
      source: 'protocol.c(919)',
      client: '::1:4000',
      message: "AH03454: HTTP Request Line; URI incorrectly encoded: ''",
    },
  ],
  [
    'OS error before the client',
    '[Sun Nov 02 02:32:29.467118 2026] [core:error] [pid 7:tid 7] (13)Permission denied: [client 10.0.0.1:1] AH00035: access denied',
    {
      module: 'core',
      level: 'error',
      pid: 7,
      tid: 7,
      osError: '(13)Permission denied',
      client: '10.0.0.1:1',
      message: 'AH00035: access denied',
    },
  ],
  [
    'no client: a ", referer: " in the message stays in the message',
    '[Sun Nov 02 02:32:29.467118 2026] [shelfmark:warn] [pid 7:tid 7] odd, referer: x',
    { module: 'shelfmark', level: 'warn', pid: 7, tid: 7, message: 'odd, referer: x' },
  ],
  [
    'empty module',
    '[Sun Nov 02 02:32:29.467118 2026] [:error] [pid 7:tid 7] x',
    { module: '', level: 'error', pid: 7, tid: 7, message: 'x' },
  ],
];

for (const [name, line, expected] of TABLE) {
  test(`parses: ${name}`, () => {
    const parsed = parseErrorLine(line);
    assert.equal(wall(parsed), '2026-11-02T02:32:29.' + line.slice(21, 27));
    assert.deepEqual(fields(parsed), expected);
  });
}

for (const bad of [
  '',
  'node:internal/process/esm_loader:40',
  '[Sun Nov 02 02:32:29.467118 2026] [php:loud] [pid 1:tid 1] unknown level',
  '[Sun Foo 02 02:32:29.467118 2026] [php:warn] [pid 1:tid 1] unknown month',
  '[Sun Feb 30 02:32:29.467118 2026] [php:warn] [pid 1:tid 1] no such day',
  '[Sun Nov 02 02:32:29.467118 2026] [php:warn] missing pid',
]) {
  test(`kept raw: ${JSON.stringify(bad.slice(0, 60))}`, () => {
    assert.deepEqual(parseErrorLine(bad), { raw: bad });
  });
}

test('round trip with formatErrorLine: the instant and the microseconds survive', () => {
  const epochUs = 1_793_583_149_467_118; // Sun Nov 02 2026, 02:32:29.467118 UTC
  const line = formatErrorLine({
    module: 'shelfmark',
    level: 'error',
    message: 'TypeError: bad "x" \\ café\nStack trace:\n#0 f()',
    client: '127.0.0.1:5000',
    referer: 'http://example.com/a',
    pid: 42,
    epochUs,
  });
  const parsed = parseErrorLine(line);
  assert.ok('time' in parsed, line);
  assert.equal(Date.parse(parsed.time), Math.floor(epochUs / 1000));
  assert.equal(parsed.time.slice(20, 26), '467118');
  assert.equal(parsed.message, 'TypeError: bad "x" \\\\ caf\\xc3\\xa9\\nStack trace:\\n#0 f()');
  assert.equal(unescapeErrorItem(parsed.message), 'TypeError: bad "x" \\ café\nStack trace:\n#0 f()');
  assert.deepEqual(messageLines(parsed.message), [
    'TypeError: bad "x" \\\\ caf\\xc3\\xa9',
    'Stack trace:',
    '#0 f()',
  ]);
  assert.equal(parsed.referer, 'http://example.com/a');
});

test('messageLines does not split an escaped backslash followed by n', () => {
  assert.deepEqual(messageLines('a\\\\nb\\nc'), ['a\\\\nb', 'c']);
});

// Apache's own lines (cases.json), with the variable parts filled in.
interface Case {
  readonly name: string;
  readonly [field: `error_log_${string}`]: readonly string[] | null | undefined;
}
const { cases } = JSON.parse(fs.readFileSync(path.join(APACHE_DIR, 'cases.json'), 'utf8')) as {
  cases: Case[];
};
const apacheLines = new Set<string>();
for (const c of cases) {
  for (const [key, value] of Object.entries(c)) {
    if (key.startsWith('error_log_') && Array.isArray(value)) for (const l of value) apacheLines.add(l);
  }
}

test('cases.json holds error-log lines to check', () => assert.ok(apacheLines.size >= 10));

for (const template of apacheLines) {
  test(`Apache's line parses: ${template.slice(0, 90)}`, () => {
    const line = template
      .replace('{ERRTIME}', 'Mon Mar 09 14:05:01.000123 2026')
      .replaceAll('{PID}', '4242')
      .replaceAll('{PORT}', '53312');
    const parsed = parseErrorLine(line);
    assert.ok('time' in parsed, `not parsed: ${line}`);
    assert.equal(parsed.time.slice(0, 26), '2026-03-09T14:05:01.000123');
    assert.equal(parsed.pid, 4242);
    assert.equal(parsed.tid, 4242);
    assert.equal(parsed.client, '127.0.0.1:53312');
    const [, module, level] = /\[(\w+):(\w+)\]/.exec(template)!;
    assert.equal(parsed.module, module);
    assert.equal(parsed.level, level);
    // Nothing is lost: the message (plus referer) is the line's tail as written.
    const tail = parsed.message + (parsed.referer === undefined ? '' : `, referer: ${parsed.referer}`);
    assert.ok(line.endsWith(`] ${tail}`), tail);
    assert.ok(!parsed.message.startsWith('['), parsed.message);
  });
}
