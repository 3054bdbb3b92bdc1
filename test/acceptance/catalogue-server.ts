// The real Shelfmark server for acceptance tests, started in this process through
// src/main.ts (the same wiring `shelfmark serve --workers 0` uses) over a fresh database with
// the demo catalogue: a temporary SQLite file, or a PostgreSQL database given by URL.
// Requests name the PUBLIC URL (which may be https://library.example/katalog/…); `get` and
// `send` map it onto the local listening socket, as a reverse proxy would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { openCatalogueDatabase, prepareDatabase, startServer } from '../../src/main.ts';
import { freePort } from '../support/process.ts';

export type StartOptions = {
  /** Public base URL; default http://127.0.0.1:<port>. */
  baseUrl?: string;
  /** Addresses whose X-Forwarded-* headers the server believes (SHELFMARK_TRUST_PROXY). */
  trustProxy?: string;
  /** postgres://… to use PostgreSQL; default a SQLite file in a temporary directory. */
  databaseUrl?: string;
  /** Load the demo catalogue (default true). */
  demo?: boolean;
  /** The server's clock (startServer's `clock`, ADR 0072): the test moves it instead of waiting. */
  clock?: () => number;
  /** More configuration, e.g. SHELFMARK_SMTP_HOST and _PORT for a test's SMTP server. */
  env?: Record<string, string>;
};

export type Catalogue = {
  /** The configured public base, without a trailing slash. */
  readonly base: string;
  /** Where the server really listens: http://127.0.0.1:<port>. */
  readonly origin: string;
  /** The public URL of a path under the base: url('/werke') → https://library.example/katalog/werke. */
  url(pathUnderBase: string): string;
  /** The local URL that reaches a public URL (the public origin swapped for the local one). */
  local(publicUrl: string): string;
  /** GET a public URL (or a path under the base); redirects are not followed. */
  get(urlOrPath: string, headers?: Record<string, string>): Promise<Response>;
  /** Any method on a public URL (or a path under the base). */
  send(
    method: string,
    urlOrPath: string,
    init?: { headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
  /** Where the server writes access.log and error.log. */
  readonly logDir: string;
  /** The numeric id of a person or work, read from the database (script URLs need it). */
  idOf(table: 'persons' | 'works', slug: string): Promise<number>;
  stop(): Promise<void>;
};

export const STAFF_AUTHORIZATION = `Basic ${Buffer.from('personal:personal').toString('base64')}`;

export async function startCatalogue(options: StartOptions = {}): Promise<Catalogue> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-acceptance-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    SHELFMARK_BASE_URL: options.baseUrl ?? origin,
    SHELFMARK_DATA_DIR: path.join(dir, 'data'),
    SHELFMARK_LOG_DIR: path.join(dir, 'logs'),
    SHELFMARK_DEMO: options.demo === false ? '0' : '1',
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.trustProxy) env.SHELFMARK_TRUST_PROXY = options.trustProxy;
  Object.assign(env, options.env);
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(`bad test configuration: ${loaded.errors.join('; ')}`);
  await prepareDatabase(loaded.config);
  const running = await startServer(loaded.config, options.clock ? { clock: options.clock } : {});

  const base = loaded.config.baseUrl.replace(/\/$/, '');
  const publicOrigin = new URL(base).origin;
  const url = (p: string): string => (/^https?:\/\//.test(p) ? p : base + p);
  const local = (publicUrl: string): string => {
    const u = new URL(publicUrl);
    if (u.origin !== publicOrigin)
      throw new Error(`${publicUrl} is not under the public origin ${publicOrigin}`);
    return origin + u.pathname + u.search;
  };
  const send: Catalogue['send'] = (method, urlOrPath, init = {}) =>
    fetch(local(url(urlOrPath)), { method, headers: init.headers, body: init.body, redirect: 'manual' });
  return {
    base,
    origin,
    url,
    local,
    // A GET may be retried once when a kept-alive connection was closed under it: the
    // validators block this process's event loop for seconds, so the client's idle timer and
    // the server's keep-alive timer can fire in the wrong order (what browsers retry too).
    get: (urlOrPath, headers = {}) =>
      send('GET', urlOrPath, { headers }).catch(() => send('GET', urlOrPath, { headers })),
    send,
    logDir: path.join(dir, 'logs'),
    async idOf(table, slug) {
      const database = await openCatalogueDatabase(loaded.config);
      try {
        const row = await database.db
          .selectFrom(table)
          .select('id')
          .where('slug', '=', slug)
          .executeTakeFirst();
        if (!row) throw new Error(`no ${table} row with slug ${slug}`);
        return row.id;
      } finally {
        await database.close();
      }
    },
    async stop() {
      await running.stop(1000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
