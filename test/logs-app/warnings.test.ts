// Issue 9 item 4: the warnings of docs/errors.md ("Warnings"), each caused on a real server and
// found in its error log at `warn`, with the request's client and Referer when a request caused
// it; every warning line is read by grok and fail2ban's prefix as Apache's, and matched by no
// stock fail2ban apache filter (a warning must never count towards a ban). The log-in limit's
// warning is tested with the other log-in entries in test/fail2ban/fail2ban.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { startRealApp } from './real-app.ts';
import { slowCacheableResource, slowResource, THROWING_FILE, warningResource } from './throwing-resource.ts';
import { FAIL2BAN_PREFIX, grok } from '../logs/log-tools.ts';
import { skipUnless } from '../support/requirements.ts';
import { ERROR_LOG_FILTERS, fail2banMatches } from '../fail2ban/apache-lines.ts';

const PUBLIC_BASE = 'https://bibliothek.example.org';
const REFERER = 'http://example.com/von?x="y"';
const LIMIT = 1024 * 1024;
let errorLog: string[] = [];
const warnings = () => errorLog.filter((l) => /\] \[(shelfmark|node):warn\] /.test(l));
const find = (re: RegExp) => {
  const found = warnings().filter((l) => re.test(l));
  assert.ok(found.length > 0, `${re}\n${errorLog.join('\n')}`);
  return found;
};

before(async () => {
  const app = await startRealApp({
    displayErrors: true,
    baseUrl: PUBLIC_BASE,
    slowRequestMs: 20,
    extraResources: [warningResource, slowResource, slowCacheableResource],
  });
  try {
    const slow = await fetch(app.base + '/test-langsam', { headers: { referer: REFERER } });
    assert.equal(slow.status, 204);
    const rendered = await fetch(app.base + '/test-langsam-gerendert.json', {
      headers: { referer: REFERER },
    });
    assert.equal(rendered.status, 200);
    const warned = await fetch(app.base + '/test-warnung', { headers: { referer: REFERER } });
    assert.equal(warned.status, 204);
    // Bodies of 95 % and of 50 % of the 1 MiB limit.
    for (const size of [Math.floor(LIMIT * 0.95), LIMIT / 2]) {
      const body = JSON.stringify({ username: 'x', password: 'y', pad: '' });
      const padded = body.replace('"pad":""', `"pad":"${'a'.repeat(size - body.length)}"`);
      const r = await fetch(app.base + '/sitzung', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: padded,
      });
      await r.arrayBuffer();
    }
  } finally {
    errorLog = (await app.stop()).error;
  }
});

test('displayErrors with a public base URL: one warning at start, no client', () => {
  const [line] = find(/displayErrors is on/);
  assert.match(
    line!,
    /^\[[^\]]+\] \[shelfmark:warn\] \[pid \d+:tid \d+\] displayErrors is on while the base URL https:\/\/bibliothek\.example\.org is not on this machine: every 500 response shows its stack trace and source to the client$/,
  );
});

test('a request slower than the threshold, with its client, request and Referer', () => {
  const [line] = find(/slow request: .*GET \/test-langsam/);
  assert.match(
    line!,
    / \[shelfmark:warn\] \[pid \d+:tid \d+\] \[client 127\.0\.0\.1:\d+\] slow request: \d+\.\d{3} s \(threshold 0\.020 s\): GET \/test-langsam, referer: http:\/\/example\.com\/von\?x="y"$/,
  );
  const seconds = Number(/slow request: (\S+) s/.exec(line!)?.[1]);
  assert.ok(seconds >= 0.05, `${seconds} s includes the handler's 50 ms`);
});

test('a slow answer to an anonymous GET of a cacheable resource (kept for the early exit) is warned about too', () => {
  const [line] = find(/slow request: .*GET \/test-langsam-gerendert\.json/);
  assert.match(
    line!,
    / \[client 127\.0\.0\.1:\d+\] slow request: \d+\.\d{3} s \(threshold 0\.020 s\): GET \/test-langsam-gerendert\.json, referer: http:\/\/example\.com\/von\?x="y"$/,
  );
});

test('a Node process warning names the file and line, and the request that raised it', () => {
  const [line] = find(/SHELFMARK_TEST_WARNING/);
  assert.ok(line);
  const emitLine =
    fs
      .readFileSync(THROWING_FILE, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('emitWarning(')) + 1;
  const where = `${THROWING_FILE} on line ${emitLine}`;
  assert.ok(
    line!.endsWith(
      `[client 127.0.0.1:${/client 127\.0\.0\.1:(\d+)/.exec(line!)?.[1]}] Warning [SHELFMARK_TEST_WARNING]: the card index is nearly full in ${where}, referer: ${REFERER}`,
    ),
    line,
  );
  assert.match(line!, / \[node:warn\] /);
});

test('a body near its limit: only the one over 90 %', () => {
  const lines = find(/request body of/);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0]!,
    / \[shelfmark:warn\] \[pid \d+:tid \d+\] \[client 127\.0\.0\.1:\d+\] request body of 996147 bytes is 94 % of the limit of 1048576 bytes: POST \/sitzung$/,
  );
});

test('every warning is an Apache error-log line: grok HTTPD24_ERRORLOG, fail2ban’s prefix', () => {
  const lines = warnings();
  assert.ok(lines.length >= 4);
  const g = grok('HTTPD24_ERRORLOG', lines);
  assert.ok(g.ok, g.output);
  for (const line of lines.filter((l) => l.includes('] [client '))) assert.match(line, FAIL2BAN_PREFIX);
});

describe('no stock fail2ban apache filter matches a warning', skipUnless('fail2ban'), () => {
  test('every error-log filter: 0 matches', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-warnings-')), 'warn.log');
    fs.writeFileSync(
      file,
      warnings()
        .map((l) => l + '\n')
        .join(''),
      'latin1',
    );
    const counts = await Promise.all(ERROR_LOG_FILTERS.map((filter) => fail2banMatches(file, filter)));
    assert.deepEqual(
      counts,
      ERROR_LOG_FILTERS.map(() => 0),
      ERROR_LOG_FILTERS.join(', '),
    );
  });
});
