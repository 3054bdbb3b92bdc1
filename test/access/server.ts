// The real Shelfmark server for end-to-end tests (access, browser, durability): `shelfmark serve
// --workers 0` as a child process over a temporary SQLite file with the demo catalogue, plus
// small clients that talk to it the way browsers and API clients do — a session cookie from the
// log-in form (with its CSRF token) or HTTP Basic on every request.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartedProcess } from '../support/process.ts';
import { serveShelfmark } from '../kit/serve.ts';

// Where they always were, for the tests that import them from here.
export { answering, ROOT } from '../kit/serve.ts';
/** Known to the tests, so that they can forge (expired) session cookies signed with it. */
export const TEST_SECRET = 'access-tests-secret-0123456789abcdefghij';
/** A front end on another origin that the server is configured to trust (SHELFMARK_CORS_ORIGINS). */
export const APP_ORIGIN = 'https://app.example';

export interface Shelfmark {
  /** http://127.0.0.1:PORT — also the configured public base URL, hence the only accepted origin. */
  readonly base: string;
  readonly dir: string;
  readonly databaseFile: string;
  readonly process: StartedProcess;
  /** Starts the server again over the same data (after stop() or a crash), on a new port. */
  restart(): Promise<Shelfmark>;
  /** Stops the server (SIGTERM) and deletes the temporary directory. */
  dispose(): Promise<void>;
}

async function serve(dir: string, env: Record<string, string | undefined> = {}): Promise<Shelfmark> {
  const databaseFile = join(dir, 'shelfmark.db');
  const { base, process: started } = await serveShelfmark({
    databaseUrl: databaseFile,
    dir,
    env: {
      SHELFMARK_SECRET: TEST_SECRET,
      SHELFMARK_CORS_ORIGINS: APP_ORIGIN,
      SHELFMARK_REQUIRE_PRECONDITIONS: undefined,
      ...env,
    },
  });
  return {
    base,
    dir,
    databaseFile,
    process: started,
    restart: () => serve(dir, env),
    async dispose() {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh server with the demo catalogue in a new temporary directory; `env` adds settings (SMTP, …). */
export function startShelfmark(
  prefix = 'shelfmark-e2e-',
  env: Record<string, string | undefined> = {},
): Promise<Shelfmark> {
  return serve(mkdtempSync(join(tmpdir(), prefix)), env);
}

export const basicAuth = (username: string, password = username): string =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

export interface Credentials {
  /** Headers for a safe request (GET). */
  readonly read: Record<string, string>;
  /** Headers for an unsafe request (POST, PUT, DELETE). */
  readonly write: Record<string, string>;
}

export const ANONYMOUS: Credentials = { read: {}, write: {} };

/** HTTP Basic on every request, as an API client sends it (no Origin, no CSRF token). */
export function basicCredentials(username: string): Credentials {
  const headers = { authorization: basicAuth(username) };
  return { read: headers, write: headers };
}

export interface Session extends Credentials {
  /** `shelfmark_session=…`, for a Cookie header. */
  readonly cookie: string;
  readonly csrfToken: string;
  /** The person id of the logged-in user (the id in /ausleihen/{id}). */
  readonly personId: number;
}

/**
 * Logs in through the log-in form (POST /sitzung, form-encoded, from the server's own origin,
 * as a browser would send it) and reads the CSRF token for this session from GET /sitzung.json.
 */
export async function logIn(base: string, username: string, password = username): Promise<Session> {
  const response = await fetch(`${base}/sitzung`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ username, password }).toString(),
    redirect: 'manual',
  });
  assert.equal(response.status, 303, `log-in of ${username}`);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const match = /^(shelfmark_session=[^;]+)/.exec(setCookie);
  assert.ok(match?.[1], `log-in of ${username} sets the session cookie: ${setCookie}`);
  const cookie = match[1];
  const who = await fetch(`${base}/sitzung.json`, { headers: { cookie } });
  assert.equal(who.status, 200);
  const body = (await who.json()) as { username?: string; csrfToken?: string; ausleihen?: { url: string } };
  assert.equal(body.username, username);
  assert.ok(body.csrfToken, 'the session representation carries the CSRF token');
  const personId = Number(/\/ausleihen\/(\d+)$/.exec(body.ausleihen?.url ?? '')?.[1]);
  assert.ok(Number.isSafeInteger(personId) && personId > 0, `person id of ${username}`);
  return {
    cookie,
    csrfToken: body.csrfToken,
    personId,
    read: { cookie },
    write: { cookie, origin: base, 'x-csrf-token': body.csrfToken },
  };
}

/** A JSON request; `credentials` picks read or write headers by the method. */
export function request(
  base: string,
  credentials: Credentials,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Response> {
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
  return fetch(`${base}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': contentType }),
      ...(unsafe ? credentials.write : credentials.read),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** The path of an absolute Location header (the tests' server answers on one base). */
export function locationPath(response: Response): string {
  const location = response.headers.get('location');
  assert.ok(location, `a Location header (status ${response.status})`);
  return new URL(location).pathname;
}
