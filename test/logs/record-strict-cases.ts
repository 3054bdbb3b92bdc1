// Records strict-cases.json from a real Apache httpd 2.4 (Debian package apache2):
//   node test/logs/record-strict-cases.ts [/usr/sbin/apache2]
// It runs a private instance (prefork, HttpProtocolOptions at its default Strict, LogLevel
// debug, combined access log) on a free port in a temporary directory, sends each case of
// strict-case-list.ts as raw bytes, and keeps the status line Apache answered, the access-log
// line and the error-log entries for that connection (time, pid and port as placeholders).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/process.ts';
import { sendCase } from './send-case.ts';
import { STRICT_CASES } from './strict-case-list.ts';

const apache = process.argv[2] ?? '/usr/sbin/apache2';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strict-apache-'));
const port = await freePort();
fs.mkdirSync(path.join(dir, 'htdocs'));
fs.writeFileSync(path.join(dir, 'htdocs', 'ok.php'), 'Hello world\n');
fs.writeFileSync(
  path.join(dir, 'httpd.conf'),
  [
    `ServerRoot ${dir}`,
    'LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so',
    'LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so',
    `Listen 127.0.0.1:${port}`,
    `PidFile ${dir}/httpd.pid`,
    `ErrorLog ${dir}/error.log`,
    'LogLevel debug authz_core:info',
    'LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined',
    `CustomLog ${dir}/access.log combined`,
    `DocumentRoot ${dir}/htdocs`,
    'ServerName localhost',
    'StartServers 1',
    'User nobody',
    'Group nogroup',
    `<Directory ${dir}/htdocs>`,
    '  Require all granted',
    '</Directory>',
  ].join('\n') + '\n',
);
fs.chmodSync(dir, 0o755);
const run = (action: string) =>
  execFileSync(apache, ['-f', path.join(dir, 'httpd.conf'), '-k', action], { env: { ...process.env, TZ: 'UTC' } });

const read = (file: string) => {
  try {
    return fs.readFileSync(path.join(dir, file), 'latin1');
  } catch {
    return '';
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

run('start');
const recorded = [];
try {
  for (let i = 0; i < 50 && !read('error.log').includes('resuming normal operations'); i++) await sleep(100);
  for (const c of STRICT_CASES) {
    const accessBefore = read('access.log').length;
    const errorBefore = read('error.log').length;
    const { answer, clientPort } = await sendCase(port, Buffer.from(c.request, 'latin1'), c.end);
    await sleep(300);
    const access = read('access.log').slice(accessBefore).split('\n').filter(Boolean);
    const errors = read('error.log')
      .slice(errorBefore)
      .split('\n')
      .filter((l) => l.includes(`[client 127.0.0.1:${clientPort}]`));
    const text = answer.toString('latin1');
    recorded.push({
      name: c.name,
      request_base64: Buffer.from(c.request, 'latin1').toString('base64'),
      end: c.end ?? null,
      response_status_line: text ? text.slice(0, text.indexOf('\r\n')) : null,
      combined: access.map((l) => l.replace(/\[[^\]]+\]/, '[{TIME}]')),
      error_log_LogLevel_debug: errors.map((l) =>
        l
          .replace(/^\[[^\]]+\]/, '[{ERRTIME}]')
          .replace(/\[pid \d+:tid \d+\]/, '[pid {PID}:tid {PID}]')
          .replace(`[client 127.0.0.1:${clientPort}]`, '[client 127.0.0.1:{PORT}]'),
      ),
    });
  }
} finally {
  run('stop');
}
const version = execFileSync(apache, ['-v'], { encoding: 'utf8' }).split('\n')[0];
const out = {
  about:
    `Recorded by test/logs/record-strict-cases.ts from ${version} (Debian, mpm_prefork, ` +
    'HttpProtocolOptions Strict by default, LogLevel debug, TZ=UTC). /ok.php is a static file here. ' +
    '{TIME}, {ERRTIME}, {PID} and {PORT} mark the variable parts.',
  cases: recorded,
};
fs.writeFileSync(new URL('strict-cases.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
fs.rmSync(dir, { recursive: true, force: true });
console.log(`${recorded.length} cases recorded`);
