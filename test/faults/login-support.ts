// Helpers for the log-in fault tests (login-limit, credential-flood): `shelfmark serve` as a child
// process over a database the test chooses (a SQLite file, or a PostgreSQL schema shared by
// several servers), and the two ways a client sends a password (HTTP Basic, the log-in form).
import { serveShelfmark as serve, type ServedShelfmark } from '../kit/serve.ts';
import type { StartOptions } from '../support/process.ts';

export type { ServedShelfmark } from '../kit/serve.ts';

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

export function serveShelfmark(o: ServeOptions): Promise<ServedShelfmark> {
  return serve({
    databaseUrl: o.databaseUrl,
    dir: o.dir,
    workers: o.workers ?? 0,
    env: { SHELFMARK_SECRET: o.secret, SHELFMARK_REQUIRE_PRECONDITIONS: undefined },
    readyTimeoutMs: 120_000,
    ...(o.t && { t: o.t }),
  });
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
