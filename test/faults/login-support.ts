// Helpers for the log-in fault tests (login-limit, credential-flood): `shelfmark serve` as a child
// process over a database the test chooses (a SQLite file, or a PostgreSQL schema shared by
// several servers), and the two ways a client sends a password (HTTP Basic, the log-in form).
import { join } from 'node:path';
import { answering, ROOT } from '../access/server.ts';
import { freePort, startProcess, type StartedProcess, type StartOptions } from '../support/process.ts';

export interface ServedShelfmark {
  readonly base: string;
  readonly process: StartedProcess;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** SQLite file or postgres:// URL. */
  readonly databaseUrl: string;
  /** Data and log directories go here; separate per "machine". */
  readonly dir: string;
  readonly workers?: number;
  /** SHELFMARK_SECRET; absent → the server generates or reads it (from the database). */
  readonly secret?: string;
  readonly t?: StartOptions['t'];
}

export async function serveShelfmark(o: ServeOptions): Promise<ServedShelfmark> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startProcess(
    process.execPath,
    ['src/cli/shelfmark.ts', 'serve', '--workers', String(o.workers ?? 0)],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: o.databaseUrl,
      SHELFMARK_DATA_DIR: join(o.dir, 'data'),
      SHELFMARK_LOG_DIR: join(o.dir, 'logs'),
      SHELFMARK_BASE_URL: base,
      SHELFMARK_SECRET: o.secret,
      SHELFMARK_DEMO: '1',
      SHELFMARK_WORKERS: undefined,
      SHELFMARK_REQUIRE_PRECONDITIONS: undefined,
    },
    /Shelfmark is serving (\S+)/,
    { cwd: ROOT, readyTimeoutMs: 120_000, ...(o.t && { t: o.t }) },
  );
  await answering(base);
  return { base, process: started, stop: () => started.stop() };
}

export const basic = (username: string, password: string): string =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** GET with Basic credentials: 200 when they are right, 401 wrong, 429 limited. */
export function tryBasic(base: string, username: string, password: string): Promise<Response> {
  return fetch(`${base}/sitzung.json`, { headers: { authorization: basic(username, password) } });
}

/** The log-in form, as a browser posts it: 303 when right, 401 wrong, 429 limited. */
export function tryForm(base: string, username: string, password: string): Promise<Response> {
  return fetch(`${base}/sitzung`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ username, password }).toString(),
    redirect: 'manual',
  });
}

/** The status of an answer, its body drained (keeps connections reusable). */
export async function statusOf(
  response: Promise<Response>,
): Promise<{ status: number; retryAfter: string | null }> {
  const r = await response;
  await r.arrayBuffer();
  return { status: r.status, retryAfter: r.headers.get('retry-after') };
}
