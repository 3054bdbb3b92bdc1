// Requests Node would answer (or drop) on its own, behind the server's back: an Expect it does
// not know (Node writes a bare 417) and CONNECT (Node hands the socket to a 'connect' listener
// or drops it). Every request gets an answer and exactly one access-log line, as with httpd.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accessLine,
  assertCombined,
  assertErrorLog,
  assertServes,
  exchange,
  linesFor,
  readLogs,
  startFaultApp,
  type RealApp,
} from './http-support.ts';

let app: RealApp;

before(async () => void (app = await startFaultApp()));
after(() => app.stop());

for (const version of ['1.1', '1.0']) {
  test(`Expect: bogus over HTTP/${version}: httpd's 417, logged with AH00570`, async () => {
    const target = `/?expect=${version}`;
    const since = readLogs(app);
    const got = await exchange(app.port, [
      `GET ${target} HTTP/${version}\r\nHost: 127.0.0.1\r\nExpect: bogus<b>\r\nUser-Agent: faults\r\n\r\n`,
    ]);
    assert.match(got.answer, /^HTTP\/1\.1 417 Expectation Failed\r\n/);
    assert.match(got.answer, /<title>417 Expectation Failed<\/title>/);
    // The client's expectation is echoed as httpd does, HTML-escaped.
    assert.match(got.answer, /Expect: bogus&lt;b&gt;\n<\/pre>/);
    const { access, error } = await linesFor(app, `GET ${target} HTTP/${version}`, since);
    const line = accessLine(access, `GET ${target} HTTP/${version}`);
    assert.equal(line.h, '127.0.0.1');
    assert.equal(line.s, '417');
    assert.equal(Number(line.b), got.answer.length - got.answer.indexOf('\r\n\r\n') - 4);
    const entries = error.filter((l) => l.includes('AH00570'));
    assert.equal(entries.length, 1, error.join('\n'));
    assert.match(
      entries[0]!,
      /\[core:info\] .*\[client 127\.0\.0\.1:\d+\] AH00570: client sent an unrecognized expectation value of Expect: bogus<b>$/,
    );
    assertCombined(access);
    assertErrorLog(error, 1);
    await assertServes(app);
  });
}

test('Expect: 100-continue is still honoured', async () => {
  const got = await exchange(app.port, [
    'POST /sitzung?expect=continue HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n' +
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\n',
    { pause: 200 },
    'a=1',
  ]);
  assert.match(got.answer, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 \d{3} /);
});

test('CONNECT is answered and logged, not dropped', async () => {
  const since = readLogs(app);
  const got = await exchange(app.port, [
    'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nUser-Agent: faults\r\n\r\n',
  ]);
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(got.answer)?.[1];
  assert.ok(status, `an HTTP answer: ${JSON.stringify(got.answer.slice(0, 200))}`);
  assert.ok(got.closedByServer);
  const { access, error } = await linesFor(app, 'CONNECT example.com:443 HTTP/1.1', since);
  const line = accessLine(access, 'CONNECT example.com:443 HTTP/1.1');
  assert.equal(line.h, '127.0.0.1');
  assert.equal(line.s, status);
  assert.equal(line.s, '405');
  assertCombined(access);
  assertErrorLog(error, 1);
  await assertServes(app);
});
