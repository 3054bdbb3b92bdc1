// httpd's Strict request parsing on the real application (ADR 0016): the raw-byte cases Apache
// 2.4 answered (test/logs/strict-cases.json) sent to a started Shelfmark. Every head Apache
// refused is refused here with its status, the same access-log line (%r, and `-` for the
// header fields Apache had not read) and the same error-log entries at LogLevel debug; none
// reaches the application. The heads Apache served are answered by the application.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { parseCombined } from '../logs/combined-line.ts';
import { sendCase } from '../logs/send-case.ts';
import { startRealApp } from './real-app.ts';

interface Recorded {
  name: string;
  request_base64: string;
  end: 'half' | 'close' | null;
  response_status_line: string | null;
  combined: string[];
  error_log_LogLevel_debug: string[];
}
const { cases } = JSON.parse(
  fs.readFileSync(new URL('../logs/strict-cases.json', import.meta.url), 'utf8'),
) as { cases: Recorded[] };

const refused = (c: Recorded) => c.combined.length > 0 && / 400 /.test(c.combined[0]!);
/** An error-log entry without time, pid, httpd's source location and the client's port. */
const entryText = (line: string, port: number | string) =>
  line
    .replace(/^\[[^\]]+\] (\[[^\]]+\]) \[pid [^\]]+\] /, '$1 ')
    .replace(/^(\[[^\]]+\] )[\w.]+\.c\(\d+\): /, '$1')
    .replace(`[client 127.0.0.1:${port}]`, '[client 127.0.0.1:{PORT}]');

let results: { c: Recorded; statusLine: string | null; clientPort: number }[];
let logs: { access: string[]; error: string[] };

before(async () => {
  const app = await startRealApp({ logLevel: 'debug', demo: false });
  results = [];
  try {
    for (const c of cases) {
      const { answer, clientPort } = await sendCase(app.port, Buffer.from(c.request_base64, 'base64'), c.end);
      const text = answer.toString('latin1');
      results.push({ c, statusLine: text ? text.slice(0, text.indexOf('\r\n')) : null, clientPort });
    }
  } finally {
    logs = await app.stop();
  }
});

test('one access-log line per case Apache logged, none for bytes without a line end', () => {
  const logged = results.filter((r) => r.c.combined.length > 0);
  assert.equal(logs.access.length, logged.length, logs.access.join('\n'));
  assert.ok(results.some((r) => r.c.combined.length === 0 && r.c.end === 'close'));
});

test('every head Apache refused: its status, its access-log line, its error-log entries', () => {
  const logged = results.filter((r) => r.c.combined.length > 0);
  logged.forEach((r, i) => {
    if (!refused(r.c)) return;
    const name = r.c.name;
    const ours = parseCombined(logs.access[i]!);
    const theirs = parseCombined(r.c.combined[0]!.replace('{TIME}', '01/Jan/2026:00:00:00 +0000'));
    assert.ok(ours && theirs, `${name}: ${logs.access[i]}`);
    for (const f of ['h', 'l', 'u', 'r', 's', 'referer', 'ua'] as const)
      assert.equal(ours[f], theirs[f], `${name}: ${f}`);
    assert.equal(ours.b === '-', theirs.b === '-', `${name}: %b`);
    assert.match(r.statusLine ?? '', /^HTTP\/1\.1 400 Bad Request$/, name);
    const expected = r.c.error_log_LogLevel_debug
      .filter((l) => !/AH02417/.test(l))
      .map((l) => entryText(l, '{PORT}'));
    const got = logs.error
      .filter((l) => l.includes(`[client 127.0.0.1:${r.clientPort}]`))
      .map((l) => entryText(l, r.clientPort));
    assert.deepEqual(got, expected, name);
  });
  assert.ok(logged.filter((r) => refused(r.c)).length >= 30);
});

test('heads Apache served reach the application (obs-fold excepted: Node refuses folding)', () => {
  const logged = results.filter((r) => r.c.combined.length > 0);
  logged.forEach((r, i) => {
    if (refused(r.c)) return;
    const ours = parseCombined(logs.access[i]!);
    assert.ok(ours);
    if (r.c.name === 'obs_fold') {
      assert.equal(ours.s, '400');
      assert.equal(ours.ua, 'one two');
    } else assert.notEqual(ours.s, '400', `${r.c.name}: ${logs.access[i]}`);
  });
});
