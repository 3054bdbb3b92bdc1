// Seeded random requests with hostile bytes in path, query, User-Agent, Referer and user name:
// every line is printable ASCII, parses back to exactly the bytes sent (as far as httpd had
// read them: a request line it refuses under Strict has no headers, a path it refuses no
// user), and satisfies grok, GoAccess; every error-log line satisfies grok HTTPD24_ERRORLOG
// and fail2ban.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestServer } from './fixture-app.ts';
import { sendRaw } from './send-raw.ts';
import { parseCombined, unescapeLogItem } from './combined-line.ts';
import { grok, goaccess, FAIL2BAN_PREFIX } from './log-tools.ts';
import { normalizablePath } from '../../src/server/strict/index.ts';
import { seeded } from '../kit/seeded.ts';

const SEED = 20261122;
const N = 250;

const rand = seeded(SEED);
const int = (n: number) => Math.floor(rand() * n);
const GROK_USER = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-';

/** Random bytes from `alphabet` or, half of the time, from 0x01–0xff without the `excluded`. */
function bytes(max: number, excluded: number[]): string {
  const n = 1 + int(max);
  let s = '';
  const hostile = rand() < 0.5;
  while (s.length < n) {
    const c = hostile ? 1 + int(255) : 0x21 + int(0x5e);
    if (!excluded.includes(c)) s += String.fromCharCode(c);
  }
  return s;
}

const srvP = startTestServer({ level: 'debug' });
after(async () => (await srvP).close());

test(`property: ${N} hostile requests (seed ${SEED}) log as parseable printable ASCII`, async () => {
  const srv = await srvP;
  const WS = [0, 9, 10, 11, 12, 13, 32]; // would end the target / header line
  // Control bytes (but HT) and DEL make httpd refuse a field value (AH02427, no header logged).
  const CTL = [...Array.from({ length: 32 }, (_, c) => c).filter((c) => c !== 9), 0x7f];
  const sent: Array<{ line: string; ua: string; ref: string; user: string; grokUser: boolean }> = [];
  for (let i = 0; i < N; i++) {
    const target = `/i${i}/` + bytes(40, WS) + (rand() < 0.5 ? '?' + bytes(30, WS) : '');
    const ua = bytes(60, CTL).replace(/^[ \t]+|[ \t]+$/g, '') || 'x';
    const ref = bytes(60, CTL).replace(/^[ \t]+|[ \t]+$/g, '') || 'y';
    const grokUser = rand() < 0.5;
    const user = grokUser
      ? Array.from({ length: 1 + int(12) }, () => GROK_USER[int(GROK_USER.length)]).join('')
      : bytes(16, [58]);
    const auth = Buffer.from(user + ':secret', 'latin1').toString('base64');
    const line = `GET ${target} HTTP/1.1`;
    const req = `${line}\r\nHost: x\r\nUser-Agent: ${ua}\r\nReferer: ${ref}\r\nAuthorization: Basic ${auth}\r\nConnection: close\r\n\r\n`;
    // httpd refuses a target with a control byte, DEL or a fragment before reading any header
    // (AH03454, AH02421), and one whose path it cannot normalise before authentication (AH10244).
    const lineRefused = [...target].some((c) => c < ' ' || c === '\x7f' || c === '#');
    const pathRefused = !lineRefused && !normalizablePath(target.split('?')[0]!);
    sent.push({
      line,
      ua: lineRefused ? '-' : ua,
      ref: lineRefused ? '-' : ref,
      user: lineRefused || pathRefused ? '-' : user,
      grokUser,
    });
    await sendRaw(srv.port, Buffer.from(req, 'latin1'));
  }
  await new Promise((r) => setTimeout(r, 50));
  const lines = await srv.accessLines();
  assert.equal(lines.length, N);
  const grokLines: string[] = [];
  lines.forEach((l, i) => {
    const s = sent[i]!;
    assert.match(l, /^[\x20-\x7e]+$/, `printable ASCII: ${l}`);
    const f = parseCombined(l);
    assert.ok(f, `parses: ${l}`);
    assert.equal(unescapeLogItem(f.r), s.line, `%r of request ${i}`);
    assert.equal(f.ua === '-' ? '-' : unescapeLogItem(f.ua), s.ua, `User-Agent of request ${i}: ${l}`);
    assert.equal(f.referer === '-' ? '-' : unescapeLogItem(f.referer), s.ref, `Referer of request ${i}`);
    assert.equal(f.u === '""' ? '' : f.u === '-' ? '-' : unescapeLogItem(f.u), s.user, `%u of request ${i}: ${l}`);
    if (s.grokUser) grokLines.push(l);
  });
  assert.ok(grokLines.length > N / 4);
  const g = grok('HTTPD_COMBINEDLOG', grokLines);
  assert.ok(g.ok, g.output.slice(0, 2000));
  // GoAccess rejects a %u containing `[` (as for Apache's own logs); grok-safe users never do.
  const ga = goaccess(grokLines);
  assert.ok(ga.ok, ga.output);
});

test('hostile and malformed requests: GoAccess and grok accept the access log; error log matches grok and fail2ban', async () => {
  const srv = await srvP;
  const before = (await srv.accessLines()).length;
  const hostile = [
    'garbage\r\n\r\n',
    'GET /ok.php\r\n\r\n',
    'GET /a b.txt HTTP/1.1\r\nHost: x\r\n\r\n',
    'get /x HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /x\x00y HTTP/1.1\r\nHost: x\r\n\r\n',
    // A TLS ClientHello's start, up to the LF its cipher list holds (httpd waits for a line's end).
    '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\xc0\x0a',
    'GET /caf\xc3\xa9 HTTP/1.1\r\nHost: x\r\nUser-Agent: \x1b[31mred\r\n\r\n',
    'GET /x HTTP/1.1\r\n\r\n',
    'GET /x HTTP/1.1\r\nHost: x\r\nX: ' + 'a'.repeat(9000) + '\r\n\r\n',
    'GET /x HTTP/1.1\r\nHost: x\r\nReferer: http://e.com/"q"\\\r\nUser-Agent: "quoted"\r\nConnection: close\r\n\r\n',
    'GET /exception.php HTTP/1.1\r\nHost: x\r\nReferer: http://e.com/from?x="y"\r\nConnection: close\r\n\r\n',
    'GET /warning.php HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    'GET /errorlog.php HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    'HEAD /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    'GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  ];
  for (const h of hostile) await sendRaw(srv.port, Buffer.from(h, 'latin1'));
  await new Promise((r) => setTimeout(r, 50));
  const lines = (await srv.accessLines()).slice(before);
  assert.equal(lines.length, hostile.length, lines.join('\n'));
  assert.match(lines.at(-1)!, /"GET \/stream HTTP\/1\.1" 200 9 /); // streamed body: 3 + 4 + 2 bytes
  assert.match(lines.at(-2)!, /"HEAD \/stream HTTP\/1\.1" 200 - /);
  const ga = goaccess(lines);
  assert.ok(ga.ok, ga.output + lines.join('\n'));
  const g = grok('HTTPD_COMBINEDLOG', lines);
  assert.ok(g.ok, g.output);
  const errors = await srv.errorLines();
  assert.ok(errors.some((l) => / \[shelfmark:error\] .*RangeError: boom "quoted" back\\\\slash in \/exception\.php in \/\S+\/test\/logs\/fixture-app\.ts on line \d+\\nStack trace:\\n#0 .*, referer: http:\/\/e\.com\/from\?x="y"$/.test(l)), errors.join('\n'));
  const eg = grok('HTTPD24_ERRORLOG', errors);
  assert.ok(eg.ok, eg.output);
  for (const l of errors) {
    if (l.includes('[client ')) assert.match(l, FAIL2BAN_PREFIX);
    assert.ok(l.length <= 8190);
    assert.match(l, /^\[(Sun|Mon|Tue|Wed|Thu|Fri|Sat) [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}\.\d{6} \d{4}\] \[\w+:\w+\] \[pid (?<pid>\d+):tid \k<pid>\] [\x20-\x7e]*$/);
  }
  fs.writeFileSync('/tmp/shelfmark-hostile-access.log', lines.join('\n') + '\n');
});
