// Request bodies that fail after the request was handed to the application: closed or reset
// half-way, malformed chunks, an unknown Transfer-Encoding, a body dripped too slowly. Each is
// answered (when the connection can still carry it) and logged as httpd would: one access-log
// line with the real client and the status httpd logs, httpd's error-log entry, no stack trace;
// and the server keeps serving.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accessLine,
  assertCombined,
  assertErrorLog,
  assertServes,
  drip,
  exchange,
  linesFor,
  readLogs,
  startFaultApp,
  type RealApp,
} from './http-support.ts';

let app: RealApp;

// mod_reqtimeout's body=20,MinRate=500 with the 20 s shortened for the test.
before(async () => void (app = await startFaultApp({ bodyTimeoutMs: 600, bodyMinRate: 500 })));
after(() => app.stop());

const post = (target: string, headers: string) =>
  `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
  `User-Agent: faults\r\n${headers}\r\n`;

const entriesFor = (error: string[], ah: string) => error.filter((l) => l.includes(ah));

test('a body cut short by a half-close: 400 answered and logged for the real client', async () => {
  const target = '/sitzung?fault=eof';
  const since = readLogs(app);
  const got = await exchange(app.port, [
    post(target, 'Content-Length: 100\r\n'),
    'username=a',
    { pause: 100 },
    'end',
  ]);
  assert.match(got.answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  const { access, error } = await linesFor(app, `POST ${target} HTTP/1.1`, since);
  const line = accessLine(access, `POST ${target} HTTP/1.1`);
  assert.equal(line.h, '127.0.0.1');
  assert.equal(line.s, '400');
  assert.equal(line.ua, 'faults');
  assertCombined(access);
  assertErrorLog(error, 1);
  await assertServes(app);
});

test('a body cut short by a reset: 400 logged for the real client, nothing answered', async () => {
  const target = '/sitzung?fault=reset';
  const since = readLogs(app);
  const got = await exchange(app.port, [
    post(target, 'Content-Length: 100\r\n'),
    'username=a',
    { pause: 100 },
    'reset',
  ]);
  assert.equal(got.answer, '');
  const { access, error } = await linesFor(app, `POST ${target} HTTP/1.1`, since);
  const line = accessLine(access, `POST ${target} HTTP/1.1`);
  assert.equal(line.h, '127.0.0.1');
  assert.equal(line.s, '400');
  assert.equal(line.b, '-');
  assertCombined(access);
  assertErrorLog(error, 1);
  await assertServes(app);
});

test('a malformed chunk size: 400 answered, AH01590 at info, no stack', async () => {
  const target = '/sitzung?fault=chunk';
  const since = readLogs(app);
  const got = await exchange(app.port, [post(target, 'Transfer-Encoding: chunked\r\n'), 'zz\r\nabc\r\n']);
  assert.match(got.answer, /^HTTP\/1\.1 400 Bad Request\r\n[^]*<title>400 Bad Request<\/title>/);
  assert.ok(got.closedByServer);
  const { access, error } = await linesFor(app, `POST ${target} HTTP/1.1`, since);
  const line = accessLine(access, `POST ${target} HTTP/1.1`);
  assert.equal(line.h, '127.0.0.1');
  assert.equal(line.s, '400');
  assert.notEqual(line.b, '-');
  const entries = entriesFor(error, 'AH01590');
  assert.equal(entries.length, 1, error.join('\n'));
  assert.match(
    entries[0]!,
    /\[http:info\] \[pid \d+:tid \d+\] \(22\)Invalid argument: \[client 127\.0\.0\.1:\d+\] AH01590: /,
  );
  assertCombined(access);
  assertErrorLog(error, 1);
  await assertServes(app);
});

test('Transfer-Encoding: xchunked: 400 answered, AH02539 at debug', async () => {
  const target = '/sitzung?fault=xchunked';
  const since = readLogs(app);
  const got = await exchange(app.port, [
    post(target, 'Transfer-Encoding: xchunked\r\n'),
    '5\r\nhello\r\n0\r\n\r\n',
  ]);
  assert.match(got.answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  const { access, error } = await linesFor(app, `POST ${target} HTTP/1.1`, since);
  const line = accessLine(access, `POST ${target} HTTP/1.1`);
  assert.equal(line.h, '127.0.0.1');
  assert.equal(line.s, '400');
  const entries = entriesFor(error, 'AH02539');
  assert.equal(entries.length, 1, error.join('\n'));
  assert.match(
    entries[0]!,
    /\[core:debug\] .*\[client 127\.0\.0\.1:\d+\] AH02539: client sent unknown Transfer-Encoding \(xchunked\): \/sitzung$/,
  );
  assertCombined(access);
  assertErrorLog(error, 1);
  await assertServes(app);
});

test('a body dripped below MinRate: 408 answered and logged, AH01382 body read timeout', async () => {
  // The log-in form: anyone may send it, so its body is read (a write that needs a log-in is
  // refused before its body, ADR 0071/0077).
  const target = '/sitzung?fault=slow';
  const body = 'username=langsam&passwort=tropf&pad='.padEnd(40, 'x');
  // 150 ms a byte (7 bytes/s, far below 500): the 600 ms allowance runs out after ~4 bytes;
  // the whole script would take 6 s, so the connection being closed early is the fix at work.
  const since = readLogs(app);
  const got = await exchange(app.port, [
    post(target, `Content-Length: ${body.length}\r\n`),
    ...drip(body, 150),
  ]);
  assert.ok(got.closedEarly, 'the server closed the connection before the body was complete');
  assert.match(got.answer, /^HTTP\/1\.1 408 Request Timeout\r\n[^]*<title>408 Request Timeout<\/title>/);
  const { access, error } = await linesFor(app, `POST ${target} HTTP/1.1`, since);
  const line = accessLine(access, `POST ${target} HTTP/1.1`);
  assert.equal(line.h, '127.0.0.1');
  assert.equal(line.s, '408');
  const entries = entriesFor(error, 'AH01382');
  assert.equal(entries.length, 1, error.join('\n'));
  assert.match(
    entries[0]!,
    /\[reqtimeout:info\] .*\[client 127\.0\.0\.1:\d+\] AH01382: Request body read timeout$/,
  );
  assertCombined(access);
  assertErrorLog(error, 1);
  await assertServes(app);
});

test('a body that keeps up with MinRate is read whole, however long it takes', async () => {
  const target = '/sitzung?fault=steady';
  // 1,500 bytes buy 3 s on top of the 600 ms: the pause of 1.2 s stays well inside them.
  const body = 'username=stetig&passwort=fluss&pad=' + 'p'.repeat(1500);
  const since = readLogs(app);
  const got = await exchange(
    app.port,
    [post(target, `Content-Length: ${body.length + 1}\r\nConnection: close\r\n`), body, { pause: 1200 }, 'x'],
    5000,
  );
  assert.doesNotMatch(got.answer, /^HTTP\/1\.1 408/);
  assert.match(got.answer, /^HTTP\/1\.1 \d{3} /);
  const status = got.answer.slice(9, 12);
  const { access } = await linesFor(app, `POST ${target} HTTP/1.1`, since);
  assert.equal(accessLine(access, `POST ${target} HTTP/1.1`).s, status);
});
