// Issue 9 item 2, "fail2ban works unchanged": a real Shelfmark server gets failed Basic and
// form log-ins, attempts the log-in limit refuses, refused loan lists and requests for what
// scanners look for; its error log must hold Apache's entries for them (same text, shape and
// escaping as apache-lines.ts builds from what a real Apache wrote), and every stock apache
// filter of Debian's fail2ban must match as many of its lines as of the equivalent Apache lines.
// The server runs with DocumentRoot /var/www, the root the stock apache-botsearch filter assumes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startRealApp } from '../logs-app/real-app.ts';
import { logIn } from '../access/server.ts';
import { basic, statusOf, tryForm } from '../faults/login-support.ts';
import { skipUnless } from '../support/requirements.ts';
import { freePort } from '../support/process.ts';
import {
  ACCESS_LOG_FILTERS,
  apacheAccessLine,
  apacheLine,
  concrete,
  ERROR_LOG_FILTERS,
  fail2banMatches,
  masked,
} from './apache-lines.ts';
import { parseCombined } from '../logs/combined-line.ts';

const ROOT = '/var/www';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

interface Sent {
  readonly what: string;
  readonly status: number;
  /** Apache's entries for it (none: Apache writes nothing at this LogLevel). */
  readonly apache: readonly string[];
}

const sent: Sent[] = [];
let errorLog: string[] = [];
let accessLog: string[] = [];
let dir: string | undefined;

const get = (base: string, p: string, headers: Record<string, string> = {}) =>
  statusOf(fetch(base + p, { headers: { accept: 'application/json', ...headers }, redirect: 'manual' }));

before(async () => {
  const app = await startRealApp({
    demo: true,
    logLevel: 'info',
    documentRoot: ROOT,
    port: await freePort(),
  });
  const base = app.base;
  const expect = async (what: string, answer: Promise<{ status: number }>, apache: string[]) =>
    sent.push({ what, status: (await answer).status, apache });
  try {
    const ben = await logIn(base, 'ben');
    const loans = `/ausleihen/${ben.personId}`;
    // Failed Basic log-ins: wrong password, unknown, empty and non-ASCII names.
    await expect('Basic, wrong password', get(base, '/sitzung.json', { authorization: basic('anna', 'x') }), [
      apacheLine.passwordMismatch('anna', '/sitzung.json'),
    ]);
    await expect('Basic, unknown user', get(base, '/werke', { authorization: basic('nobody', 'x') }), [
      apacheLine.userNotFound('nobody', '/werke'),
    ]);
    await expect('Basic, empty user', get(base, '/', { authorization: basic('', 'pw') }), [
      apacheLine.userNotFound('', '/'),
    ]);
    await expect('Basic, "bob smith"', get(base, '/', { authorization: basic('bob smith', 'pw') }), [
      apacheLine.userNotFound('bob smith', '/'),
    ]);
    await expect('Basic, UTF-8 name', get(base, '/caf%C3%A9', { authorization: basic('jürgen', 'pw') }), [
      apacheLine.userNotFound('j\\xc3\\xbcrgen', '/caf\\xc3\\xa9'),
    ]);
    // Failed form log-ins: the name as typed.
    await expect('form, wrong password', tryForm(base, 'anna', 'wrong'), [
      apacheLine.passwordMismatch('anna', '/sitzung'),
    ]);
    await expect('form, unknown user', tryForm(base, 'x"y\\z', 'wrong'), [
      apacheLine.userNotFound('x"y\\\\z', '/sitzung'),
    ]);
    // The log-in limit: five failures for goethe, then attempts refused (429) even when right.
    for (let i = 1; i <= 5; i++)
      await expect(
        `Basic, goethe failure ${i}`,
        get(base, '/sitzung.json', { authorization: basic('goethe', `w${i}`) }),
        [apacheLine.passwordMismatch('goethe', '/sitzung.json')],
      );
    await expect('Basic, limited', get(base, '/sitzung.json', { authorization: basic('goethe', 'goethe') }), [
      apacheLine.clientDenied(ROOT, '/sitzung.json'),
    ]);
    await expect('form, limited', tryForm(base, 'goethe', 'goethe'), [
      apacheLine.clientDenied(ROOT, '/sitzung'),
    ]);
    // Refused loan lists: a member by Basic and by session; anonymous (Apache: a 401 challenge,
    // no entry); the borrower herself (no entry).
    await expect('Basic anna, ben’s loans', get(base, loans, { authorization: basic('anna', 'anna') }), [
      apacheLine.authorizationFailure('anna', loans),
    ]);
    const anna = await logIn(base, 'anna');
    await expect('session anna, ben’s loans', get(base, loans + '.json', anna.read), [
      apacheLine.authorizationFailure('anna', loans + '.json'),
    ]);
    await expect('anonymous, ben’s loans', get(base, loans), []);
    await expect('ben, his loans', get(base, loans, ben.read), []);
    // What scanners ask for (404, core:info).
    for (const p of [
      '/wp-login.php',
      '/~root/',
      '/phpmyadmin/index.php',
      '/cgi-bin/test.cgi',
      '/personen/niemand',
    ])
      await expect(`404 ${p}`, get(base, p), [apacheLine.fileDoesNotExist(ROOT, p)]);
    // For the access-log filters: a bad bot, a (fake) Googlebot, a knock on apache-pass's URL.
    await expect('bad bot', get(base, '/werke', { 'user-agent': 'EmailCollector' }), []);
    await expect('Googlebot', get(base, '/personen', { 'user-agent': GOOGLEBOT }), []);
    await expect('404 knocking', get(base, '/knocking/', { authorization: basic('anna', 'anna') }), [
      apacheLine.fileDoesNotExist(ROOT, '/knocking/'),
    ]);
  } finally {
    ({ error: errorLog, access: accessLog } = await app.stop());
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-fail2ban-'));
});

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the requests were answered as intended', () => {
  const statuses = sent.map((s) => `${s.what}: ${s.status}`);
  const expected = sent.map((s) => {
    if (s.what.startsWith('404')) return `${s.what}: 404`;
    if (s.what === 'bad bot' || s.what === 'Googlebot') return `${s.what}: 200`;
    if (s.what.includes('limited')) return `${s.what}: 429`;
    if (s.what.includes('loans')) return `${s.what}: ${s.what.startsWith('ben') ? 200 : 403}`;
    return `${s.what}: 401`;
  });
  assert.deepEqual(statuses, expected);
});

test('the error log holds exactly Apache’s entries for them, in order', () => {
  const refusals = errorLog
    .filter((l) => /\] \[(auth_basic|authz_core):error\] |\] \[core:info\] .*AH00128: /.test(l))
    .map(masked);
  assert.deepEqual(
    refusals,
    sent.flatMap((s) => s.apache),
  );
});

test('the limit that trips is a warning, which no apache filter matches', () => {
  const warnings = errorLog.filter((l) => l.includes('[shelfmark:warn]'));
  assert.equal(warnings.length, 1, errorLog.join('\n'));
  assert.match(
    warnings[0]!,
    / \[client 127\.0\.0\.1:\d+\] log-in limit reached for user goethe from this address: further attempts refused for \d+ s$/,
  );
});

describe('fail2ban-regex with each stock apache filter', skipUnless('fail2ban'), () => {
  for (const filter of ERROR_LOG_FILTERS) {
    test(`${filter}: as many matches as on Apache's lines`, async () => {
      const shelfmarkLog = path.join(dir!, 'shelfmark-error.log');
      const apacheLog = path.join(dir!, 'apache-error.log');
      fs.writeFileSync(shelfmarkLog, errorLog.map((l) => l + '\n').join(''), 'latin1');
      const apache = sent.flatMap((s) => s.apache).map(concrete);
      fs.writeFileSync(apacheLog, apache.map((l) => l + '\n').join(''), 'latin1');
      const [ours, theirs] = await Promise.all([
        fail2banMatches(shelfmarkLog, filter),
        fail2banMatches(apacheLog, filter),
      ]);
      assert.equal(ours, theirs, `${filter}: Shelfmark ${ours}, Apache ${theirs}`);
      // The counts mean something: the filters that apply do match.
      const expected: Record<string, number> = {
        'apache-auth': 16,
        'apache-noscript': 3,
        'apache-nohome': 1,
        'apache-botsearch': 3,
      };
      assert.equal(theirs, expected[filter] ?? 0, `${filter} on Apache's lines`);
    });
  }
});

describe('fail2ban-regex with each stock apache access-log filter', skipUnless('fail2ban'), () => {
  // apache-fakegooglebot (fail2ban 1.0.2) matches none of these lines, Apache's included: not
  // even a hand-written Apache combined line with a Googlebot User-Agent; apache-pass wants a
  // 200 for /knocking/, which Shelfmark does not have.
  const expected: Record<string, number> = {
    'apache-badbots': 1,
    'apache-fakegooglebot': 0,
    'apache-pass': 0,
  };
  for (const filter of ACCESS_LOG_FILTERS) {
    test(`${filter}: as many matches as on Apache's lines`, async () => {
      const apache = accessLog.map((line) => {
        const fields = parseCombined(line);
        assert.ok(fields, line);
        return apacheAccessLine(fields);
      });
      const shelfmarkLog = path.join(dir!, 'shelfmark-access.log');
      const apacheLog = path.join(dir!, 'apache-access.log');
      fs.writeFileSync(shelfmarkLog, accessLog.map((l) => l + '\n').join(''), 'latin1');
      fs.writeFileSync(apacheLog, apache.map((l) => l + '\n').join(''), 'latin1');
      const [ours, theirs] = await Promise.all([
        fail2banMatches(shelfmarkLog, filter),
        fail2banMatches(apacheLog, filter),
      ]);
      assert.equal(ours, theirs, `${filter}: Shelfmark ${ours}, Apache ${theirs}`);
      assert.equal(theirs, expected[filter], `${filter} on Apache's lines`);
    });
  }
});
