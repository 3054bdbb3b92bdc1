// openDatabase(url): one entry point for both engines. `postgres://…` → a pg Pool behind
// Kysely's PostgresDialect; anything else (a path, `sqlite:path`, `:memory:`) → node:sqlite.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import pg from 'pg';
import { withErrorMapping } from './error-mapping.ts';
import { NodeSqliteDialect } from './sqlite-driver.ts';

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
}

export interface Database<DB> {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  readonly capabilities: Capabilities;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL: schema search path for every pooled connection (tests use a fresh schema). */
  readonly searchPath?: string;
  /** PostgreSQL: pool size (default 10). */
  readonly poolMax?: number;
  /** SQLite: busy_timeout in ms (default 5000). */
  readonly busyTimeoutMs?: number;
}

export const CAPABILITIES: Readonly<Record<DialectName, Capabilities>> = {
  sqlite: { fullText: 'fts5', returning: true, forUpdate: false, concurrentWriters: false },
  postgres: { fullText: 'tsvector', returning: true, forUpdate: true, concurrentWriters: true },
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
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolMax ?? 10,
      ...(options.searchPath ? { options: `-c search_path=${quoteSearchPath(options.searchPath)}` } : {}),
    });
    const db = new Kysely<DB>({ dialect: withErrorMapping(new PostgresDialect({ pool })) });
    return database(db, 'postgres');
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
  return database(db, 'sqlite');
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
