import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { createErrorLog, type LogSink } from '../../logging/index.ts';
import { createRefusalLog, requestUri } from './refusal-log.ts';

function capture(level: 'warn' | 'info' = 'info') {
  const lines: string[] = [];
  const sink = { write: (line: string) => void lines.push(line) } as unknown as LogSink;
  return { lines, log: createErrorLog(sink, { level }) };
}

const raw = (referer?: string) =>
  ({
    socket: { remoteAddress: '::ffff:192.0.2.7', remotePort: 51234 },
    rawHeaders: referer === undefined ? [] : ['Referer', referer],
  }) as unknown as IncomingMessage;

const body = (line: string | undefined) => line?.replace(/^\[[^\]]+\] /, '');

test('requestUri: the path percent-decoded to bytes, no query, absolute-form reduced to its path', () => {
  assert.equal(requestUri('/caf%C3%A9?q=1'), '/caf\xc3\xa9');
  assert.equal(requestUri('http://example.org/a%22b'), '/a"b');
  assert.equal(requestUri('http://example.org'), '/');
});

test('httpd’s texts, modules and levels, escaped as httpd escapes error-log items', () => {
  const { lines, log } = capture();
  const refusals = createRefusalLog(log, '/var/www/html/');
  refusals.authenticationFailed(raw(), '/sitzung', 'jürgen "j" \\', false);
  refusals.authenticationFailed(raw('http://x/"y"'), '/werke?q=1', '', true);
  refusals.authorizationFailed(raw(), '/ausleihen/3', 'anna');
  refusals.clientDenied(raw(), '/sitzung.json');
  refusals.notFound(raw(), '/caf%C3%A9');
  assert.deepEqual(lines.map(body), [
    `[auth_basic:error] [pid ${process.pid}:tid ${process.pid}] [client 192.0.2.7:51234] AH01617: user j\\xc3\\xbcrgen "j" \\\\: authentication failure for "/sitzung": Password Mismatch`,
    `[auth_basic:error] [pid ${process.pid}:tid ${process.pid}] [client 192.0.2.7:51234] AH01618: user  not found: /werke, referer: http://x/"y"`,
    `[authz_core:error] [pid ${process.pid}:tid ${process.pid}] [client 192.0.2.7:51234] AH01631: user anna: authorization failure for "/ausleihen/3": `,
    `[authz_core:error] [pid ${process.pid}:tid ${process.pid}] [client 192.0.2.7:51234] AH01630: client denied by server configuration: /var/www/html/sitzung.json`,
    `[core:info] [pid ${process.pid}:tid ${process.pid}] [client 192.0.2.7:51234] AH00128: File does not exist: /var/www/html/caf\\xc3\\xa9`,
  ]);
});

test('the 404 entry is `info`: not written at the default LogLevel warn', () => {
  const { lines, log } = capture('warn');
  createRefusalLog(log, '/var/www/html').notFound(raw(), '/nope');
  assert.deepEqual(lines, []);
});
