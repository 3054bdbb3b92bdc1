// openDatabase(url): one entry point for both engines. `postgres://…` → a pg Pool behind
// Kysely's PostgresDialect; anything else (a path, `sqlite:path`, `:memory:`) → node:sqlite.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresAdapter } from 'kysely';
import pg from 'pg';
import { withErrorMapping } from './error-mapping.ts';
import { mapDatabaseError } from './errors.ts';
import { NodeSqliteDialect } from './sqlite-driver.ts';
import { GENERIC_PLAN_SETTING, PreparingPostgresDialect } from './postgres/driver.ts';
import { ownConnection, type OwnConnection } from './postgres/own-connection.ts';

export type DialectName = 'sqlite' | 'postgres';

/** What the engine can do; the only place code should branch on the dialect. */
export interface Capabilities {
  /** Full-text implementation: FTS5 virtual tables or a tsvector column with a GIN index. */
  readonly fullText: 'fts5' | 'tsvector';
  /** `INSERT … RETURNING` (both engines have it). */
  readonly returning: boolean;
  /** `SELECT … FOR UPDATE` row locks; SQLite instead serialises writers with BEGIN IMMEDIATE. */
  readonly forUpdate: boolean;
  /** Several processes/machines may write at the same time (PostgreSQL). */
  readonly concurrentWriters: boolean;
  /**
   * One process runs several reads at the same time (a pool of connections: PostgreSQL);
   * SQLite's one connection runs them in turn, so starting one early gains nothing there.
   */
  readonly concurrentReads: boolean;
}

export interface Database<DB> {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  readonly capabilities: Capabilities;
  close(): Promise<void>;
  /**
   * PostgreSQL: a connection beside the pool, opened at its first query and closed with the
   * database, for the change feed every request waits for (ADR 0105). Absent on SQLite.
   */
  readonly own?: OwnConnection;
}

export interface OpenOptions {
  /** PostgreSQL: schema search path for every pooled connection (tests use a fresh schema). */
  readonly searchPath?: string;
  /** PostgreSQL: pool size (default 10). */
  readonly poolMax?: number;
  /** SQLite: how long a writer waits for another process's lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * PostgreSQL: told about an error on a pooled connection outside any query (the server
   * terminated it, went down, the network dropped). The pool discards that connection and
   * opens a new one when next needed; this is only for the log. Without a listener such an
   * error would be thrown as an uncaught exception and end the process.
   */
  readonly onConnectionError?: (error: unknown) => void;
}

export const CAPABILITIES: Readonly<Record<DialectName, Capabilities>> = {
  sqlite: {
    fullText: 'fts5',
    returning: true,
    forUpdate: false,
    concurrentWriters: false,
    concurrentReads: false,
  },
  postgres: {
    fullText: 'tsvector',
    returning: true,
    forUpdate: true,
    concurrentWriters: true,
    concurrentReads: true,
  },
};

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The SQLite file path a URL names: `sqlite:path`, `sqlite://path`, `file:path` or a plain path. */
export function sqlitePath(url: string): string {
  const path = url.replace(/^(sqlite|file):(\/\/)?/i, '');
  if (path === '') throw new Error(`no SQLite path in database URL "${url}"`);
  return path;
}

export async function openDatabase<DB>(url: string, options: OpenOptions = {}): Promise<Database<DB>> {
  if (isPostgresUrl(url)) {
    const config = {
      connectionString: url,
      ...(options.searchPath ? { options: `-c search_path=${quoteSearchPath(options.searchPath)}` } : {}),
    };
    const max = options.poolMax ?? 10;
    const pool = new pg.Pool({ ...config, max });
    // For the statements that ask for one generic plan (ADR 0115), a few at a time: connected
    // when first used, each connection set before its first statement (pg runs a client's
    // queries in order) — a setting, not startup options, which the URL's own would replace.
    const generic = new pg.Pool({ ...config, max: Math.ceil(max / 2) });
    generic.on('connect', (client) => {
      client.query(GENERIC_PLAN_SETTING).catch(() => undefined);
    });
    const report = options.onConnectionError ?? (() => undefined);
    listenForConnectionErrors(pool, report);
    listenForConnectionErrors(generic, report);
    const db = new Kysely<DB>({ dialect: withErrorMapping(new PreparingPostgresDialect(pool, generic)) });
    const own = ownConnection(config, (error) => report(mapDatabaseError(error)));
    const pooled = database(db, 'postgres');
    return { ...pooled, own, close: () => own.close().then(() => pooled.close()) };
  }
  const path = sqlitePath(url);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const dialect = new NodeSqliteDialect({
    path,
    ...(options.busyTimeoutMs ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
  });
  const db = new Kysely<DB>({ dialect: withErrorMapping(dialect) });
  // Open now so a bad path fails here rather than at the first query.
  await db.connection().execute(async () => undefined);
  immediateReads.set(db, (sqlText, parameters) => dialect.readNow(sqlText, parameters));
  return database(db, 'sqlite');
}

/**
 * SQLite: a read run at once when the connection is free, else undefined (read the usual way
 * then). For reads on every request's path (ADR 0066, 0118).
 */
export type ReadNow = (
  sqlText: string,
  parameters: readonly unknown[],
) => Record<string, unknown>[] | undefined;

/** The readNow of each SQLite database's own Kysely instance (not its transactions'). */
const immediateReads = new WeakMap<object, ReadNow>();

/**
 * The readNow of `db` if it is an SQLite database's own instance: undefined for PostgreSQL and
 * for a transaction (whose statements must run on its connection, in its turn), so a caller
 * that reads through it never reads past a transaction or a queued write (ADR 0118).
 */
export function immediateReadOf<DB>(db: Kysely<DB>): ReadNow | undefined {
  return immediateReads.get(db);
}

/**
 * pg emits `error` on a client whose connection fails while no query is running on it: on the
 * pool for an idle client, on the client itself while it is checked out (e.g. between the
 * statements of a transaction). Both need a listener or Node throws the error. The client is
 * not queryable afterwards: the running transaction fails with UnavailableError and the pool
 * discards the client on release.
 */
function listenForConnectionErrors(pool: pg.Pool, report: (error: unknown) => void): void {
  const seen = new WeakSet<object>();
  const once = (error: unknown) => {
    if (typeof error === 'object' && error !== null) {
      if (seen.has(error)) return;
      seen.add(error);
    }
    report(mapDatabaseError(error));
  };
  pool.on('error', once);
  pool.on('connect', (client) => client.on('error', once));
}

function database<DB>(db: Kysely<DB>, dialect: DialectName): Database<DB> {
  return { db, dialect, capabilities: CAPABILITIES[dialect], close: () => db.destroy() };
}

/** For code handed only a Kysely instance (e.g. createStores(db)): which engine is it? */
export function detectCapabilities<DB>(db: Kysely<DB>): Capabilities {
  return CAPABILITIES[detectDialect(db)];
}

export function detectDialect<DB>(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

function quoteSearchPath(searchPath: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]*(\s*,\s*[A-Za-z_][A-Za-z0-9_$]*)*$/.test(searchPath)) {
    throw new Error(`unsafe search_path "${searchPath}"`);
  }
  return searchPath.replaceAll(' ', '');
}
