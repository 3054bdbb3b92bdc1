// httpd's Strict request parsing, replayed: every case of strict-cases.json (raw bytes that a
// real Apache 2.4 answered, see record-strict-cases.ts) sent to Shelfmark's server must get
// Apache's status and body length, the same access-log line (%r, and the header fields httpd
// had read when it refused: `-` for the rest), and the same error-log entries at LogLevel
// debug. docs/decisions/0016-strict-request-parsing.md
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { parseCombined } from './combined-line.ts';
import { startTestServer, type TestServer } from './fixture-app.ts';
import { sendCase } from './send-case.ts';

interface Recorded {
  name: string;
  request_base64: string;
  end: 'half' | 'close' | null;
  response_status_line: string | null;
  combined: string[];
  error_log_LogLevel_debug: string[];
}
const { cases } = JSON.parse(fs.readFileSync(new URL('strict-cases.json', import.meta.url), 'utf8')) as {
  cases: Recorded[];
};

// Apache folds an obs-fold line into the field and serves the request; Node's parser refuses
// folding, so Shelfmark answers 400 (logging the folded field as Apache would), with its own
// debug entry. ADR 0016.
const STATUS_DIFFERS: Record<string, number> = { obs_fold: 400 };
// Apache serves these after normalising the path (/a/../ok.php is /ok.php); which page that is
// belongs to the application, so only "not refused, no entry" is compared.
const SERVED_BY_THE_APPLICATION = new Set(['dotdot_inside_root']);
// Entries of modules Shelfmark does not have (virtual hosts).
const NOT_OURS = /AH02417/;

/** An entry without its time and pid, httpd's source location (written at debug) and port. */
const entryText = (line: string, port: number | string) =>
  line
    .replace(/^\[[^\]]+\] (\[[^\]]+\]) \[pid [^\]]+\] /, '$1 ')
    .replace(/^(\[[^\]]+\] )[\w.]+\.c\(\d+\): /, '$1')
    .replace(`[client 127.0.0.1:${port}]`, '[client 127.0.0.1:{PORT}]');

let srv: TestServer;
before(async () => void (srv = await startTestServer({ level: 'debug' })));
after(() => srv.close());

for (const c of cases) {
  test(`strict case ${c.name}`, async () => {
    const accessBefore = (await srv.accessLines()).length;
    const errorBefore = (await srv.errorLines()).length;
    const { answer, clientPort } = await sendCase(srv.port, Buffer.from(c.request_base64, 'base64'), c.end);
    await new Promise((r) => setTimeout(r, 50)); // the response's 'close'
    const access = (await srv.accessLines()).slice(accessBefore);
    const errors = (await srv.errorLines()).slice(errorBefore).filter((l) => l.includes(`:${clientPort}]`));
    const text = answer.toString('latin1');
    const statusLine = text ? text.slice(0, text.indexOf('\r\n')) : null;

    if (c.combined.length === 0) {
      assert.deepEqual(access, [], 'no access-log line');
      assert.equal(statusLine, c.response_status_line, 'no answer');
      return;
    }
    assert.equal(access.length, 1, `one line: ${JSON.stringify(access)}`);
    const ours = parseCombined(access[0]!);
    const theirs = parseCombined(c.combined[0]!.replace('{TIME}', '01/Jan/2026:00:00:00 +0000'));
    assert.ok(ours && theirs, access[0]);
    for (const f of ['h', 'l', 'u', 'r', 'referer', 'ua'] as const) assert.equal(ours[f], theirs[f], f);
    if (SERVED_BY_THE_APPLICATION.has(c.name)) {
      assert.notEqual(ours.s, '400');
      assert.deepEqual(errors, []);
      return;
    }
    const status = STATUS_DIFFERS[c.name] ?? Number(theirs.s);
    assert.equal(Number(ours.s), status, 'status logged');
    assert.match(statusLine ?? '', new RegExp(`^HTTP/1\\.1 ${status} `), 'status answered');
    if (!(c.name in STATUS_DIFFERS)) {
      // Apache's error pages carry its signature; only whether a body was sent is compared.
      assert.equal(ours.b === '-', theirs.b === '-', `%b ${ours.b}`);
      const expected = c.error_log_LogLevel_debug.filter((l) => !NOT_OURS.test(l)).map((l) => entryText(l, '{PORT}'));
      assert.deepEqual(
        errors.map((l) => entryText(l, clientPort)),
        expected,
      );
    }
  });
}

// The recorded ClientHello again, its first 77 bytes (no LF) first and the rest later: while
// Shelfmark waits for the line's end (as httpd does, tls_hello_without_line_end_*), a later
// chunk must end the wait — answered and logged as the whole hello was
// (tls_client_hello_then_close), not left hanging until a timeout.
test('a ClientHello whose LF comes in a later chunk is judged when the line ends, as whole', async () => {
  const whole = cases.find((c) => c.name === 'tls_client_hello_then_close')!;
  const bytes = Buffer.from(whole.request_base64, 'base64');
  const accessBefore = (await srv.accessLines()).length;
  const answer = await new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(srv.port, '127.0.0.1', () => socket.write(bytes.subarray(0, 77)));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    // The rest only once the server's parser has refused the first chunk (its 'clientError').
    srv.server.once('clientError', () => socket.write(bytes.subarray(77)));
  });
  await new Promise((r) => setTimeout(r, 50)); // the response's 'close'
  assert.equal(answer.slice(0, answer.indexOf('\r\n')), whole.response_status_line);
  const access = (await srv.accessLines()).slice(accessBefore);
  assert.equal(access.length, 1, access.join('\n'));
  assert.deepEqual(parseCombined(access[0]!)?.r, parseCombined(whole.combined[0]!.replace('{TIME}', 'x'))?.r);
});
