// The error-log entries Apache httpd 2.4 writes for the refusals Shelfmark logs the same way
// (src/http/app/refusal-log.ts), built from what a real Apache wrote (../shared/apache/cases.json)
// where it was recorded, and from httpd's format strings where it was not:
//   AH01617, AH01618  cases auth_badpw, auth_empty_user (mod_auth_basic), with the user and path
//                     substituted;
//   AH00128           case not_found (core), with the DocumentRoot and path substituted;
//   AH01631, AH01630  mod_authz_core.c, authorize_user_core():
//                     "user %s: authorization failure for \"%s\": " (r->user, r->uri) and
//                     "client denied by server configuration: %s%s" ("", r->filename).
// Variable parts are written as cases.json marks them: {ERRTIME}, {PID}, {PORT}.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { APACHE_DIR } from '../support/shared.ts';
import { FAIL2BAN_FILTERS } from '../support/requirements.ts';
import type { CombinedFields } from '../logs/combined-line.ts';

interface Case {
  readonly name: string;
  readonly combined?: readonly string[];
  readonly error_log_LogLevel_info?: readonly string[];
}

const cases = (JSON.parse(fs.readFileSync(path.join(APACHE_DIR, 'cases.json'), 'utf8')) as { cases: Case[] })
  .cases;

function recorded(name: string): string {
  const line = cases.find((c) => c.name === name)?.error_log_LogLevel_info?.[0];
  if (line === undefined) throw new Error(`cases.json has no error-log line for ${name}`);
  return line;
}

const CLIENT = '[client 127.0.0.1:{PORT}] ';

/** A line of Apache's default ErrorLogFormat for a request, with a message we construct. */
const constructed = (module: string, level: string, message: string): string =>
  `[{ERRTIME}] [${module}:${level}] [pid {PID}:tid {PID}] ${CLIENT}${message}`;

/** Apache's entries; `user` and `uri` as httpd has them (bytes, escaped: caf\xc3\xa9). */
export const apacheLine = {
  passwordMismatch: (user: string, uri: string): string =>
    recorded('auth_badpw').replace('user alice:', `user ${user}:`).replace('"/secret/"', `"${uri}"`),
  userNotFound: (user: string, uri: string): string =>
    recorded('auth_empty_user').replace('user  not found: /secret/', `user ${user} not found: ${uri}`),
  fileDoesNotExist: (documentRoot: string, uri: string): string =>
    recorded('not_found').replace('/srv/www/htdocs/nope.html', documentRoot + uri),
  authorizationFailure: (user: string, uri: string): string =>
    constructed('authz_core', 'error', `AH01631: user ${user}: authorization failure for "${uri}": `),
  clientDenied: (documentRoot: string, uri: string): string =>
    constructed(
      'authz_core',
      'error',
      `AH01630: client denied by server configuration: ${documentRoot}${uri}`,
    ),
};

/** A Shelfmark error-log line with its time, pid and client port replaced as cases.json marks them. */
export function masked(line: string): string {
  return line
    .replace(/^\[[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{6} \d{4}\]/, '[{ERRTIME}]')
    .replace(/\[pid \d+:tid \d+\]/, '[pid {PID}:tid {PID}]')
    .replace(/\[client 127\.0\.0\.1:\d+\]/, '[client 127.0.0.1:{PORT}]');
}

/** A masked line made concrete again (a fixed time, pid and port), for fail2ban to read. */
export function concrete(line: string): string {
  return line
    .replace('{ERRTIME}', 'Sun Nov 22 02:32:29.467118 2026')
    .replaceAll('{PID}', '4242')
    .replace('{PORT}', '53312');
}

/**
 * Apache's combined line for a request with these fields (as Shelfmark's access log has them:
 * test/logs/apache-cases.test.ts shows they are Apache's for the same request), written into
 * the line Apache recorded for case get_ok.
 */
export function apacheAccessLine(f: CombinedFields): string {
  const template = cases.find((c) => c.name === 'get_ok')?.combined?.[0];
  if (template !== '127.0.0.1 - - [{TIME}] "GET /ok.php HTTP/1.1" 200 12 "-" "curl/7.88.1"')
    throw new Error(`cases.json get_ok changed: ${template}`);
  return template
    .replace('127.0.0.1 - -', `${f.h} ${f.l} ${f.u}`)
    .replace('{TIME}', f.t)
    .replace(
      '"GET /ok.php HTTP/1.1" 200 12 "-" "curl/7.88.1"',
      `"${f.r}" ${f.s} ${f.b} "${f.referer}" "${f.ua}"`,
    );
}

/** The stock filters of Debian's fail2ban that read Apache's access log. */
export const ACCESS_LOG_FILTERS = ['apache-badbots', 'apache-fakegooglebot', 'apache-pass'] as const;

/** The stock filters of Debian's fail2ban that read Apache's error log. */
export const ERROR_LOG_FILTERS = [
  'apache-auth',
  'apache-noscript',
  'apache-overflows',
  'apache-nohome',
  'apache-botsearch',
  'apache-modsecurity',
  'apache-shellshock',
] as const;

/** How many lines of `logFile` the stock filter matches (fail2ban-regex's "N matched"). */
export function fail2banMatches(logFile: string, filter: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('fail2ban-regex', [
      '--print-no-missed',
      logFile,
      `${FAIL2BAN_FILTERS}/${filter}.conf`,
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('latin1')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('latin1')));
    child.on('error', reject);
    child.on('close', (code) => {
      const count = /^Lines: \d+ lines, \d+ ignored, (\d+) matched, \d+ missed/m.exec(out)?.[1];
      if (code !== 0 || count === undefined)
        reject(new Error(`fail2ban-regex ${filter} (exit ${code}):\n${out}`));
      else resolve(Number(count));
    });
  });
}
