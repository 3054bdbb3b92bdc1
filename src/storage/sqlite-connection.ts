// The one node:sqlite connection of a process: a statement cache, the pragmas, and what makes
// a file that was read-only (permissions, an immutable file, a read-only mount) writable
// again without a restart: SQLite keeps a connection opened read-only read-only forever, so
// when a write failed that way (or the file could not be opened for writing) the connection
// is reopened at the next use once the file is writable again (ADR 0046).
import { accessSync, constants } from 'node:fs';
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';

// SQLite primary result codes (https://sqlite.org/rescode.html).
export const BUSY_CODES = new Set([5 /* BUSY */, 6 /* LOCKED */]);
/** The file could not be written or opened: reopen once it is writable again. */
const REOPEN_CODES = new Set([8 /* READONLY */, 10 /* IOERR */, 14 /* CANTOPEN */]);

export function isSqlite(error: unknown, primaryCodes: ReadonlySet<number>): boolean {
  const e = error as { code?: unknown; errcode?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.code === 'ERR_SQLITE_ERROR' &&
    typeof e.errcode === 'number' &&
    primaryCodes.has(e.errcode & 0xff)
  );
}

/**
 * Measured on the benchmark catalogue (ADR 0047): reads of a mapped file skip the pread()
 * system call per page, and a page cache that holds the hot indexes avoids re-reading them.
 * SQLite's own defaults are no mapping and a 2 MiB cache.
 */
export const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;
export const SQLITE_CACHE_KIB = 64 * 1024;

function openFile(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true });
  try {
    // Never wait inside SQLite: that would block the event loop (the driver retries instead).
    db.exec('PRAGMA busy_timeout = 0');
    if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL'); // safe with WAL: a crash loses at most the last commit
    db.exec('PRAGMA foreign_keys = ON');
    db.exec(`PRAGMA mmap_size = ${SQLITE_MMAP_BYTES}`);
    db.exec(`PRAGMA cache_size = -${SQLITE_CACHE_KIB}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Statements are cached by SQL text: preparing is a large part of a small query's cost. */
const STATEMENT_CACHE_SIZE = 256;

/** Whether this process may open the file for writing (what SQLite's open will find). */
function writable(path: string): boolean {
  if (path === ':memory:') return true;
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch (error) {
    // A file that does not exist yet is created by SQLite (its directory decides).
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

interface Prepared {
  /** Returns rows as arrays of values (`setReturnArrays`). */
  readonly statement: StatementSync;
  /**
   * The result's column names; none: not a SELECT, PRAGMA or write with RETURNING, so it is
   * answered with `run()`.
   */
  names: readonly string[];
}

/**
 * The column names for rows of `values.length` columns: a `select *` re-prepared by SQLite after
 * a schema change returns more or fewer columns than when it was cached, so they are asked again
 * rather than paired wrongly.
 */
function namesOf(prepared: Prepared, values: readonly unknown[] | undefined): readonly string[] {
  if (values !== undefined && values.length !== prepared.names.length)
    prepared.names = prepared.statement.columns().map((column) => column.name);
  return prepared.names;
}

/** A row as a plain object; a name given twice keeps its last value, as node:sqlite does. */
function rowOf<R>(names: readonly string[], values: readonly unknown[]): R {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
  return row as R;
}

/** Runs a statement outside a transaction, waiting for other processes' locks. */
export type Retrying = <T>(attempt: () => T, writes: boolean) => Promise<T>;

/** Statements that take the write lock (the rest of what runs outside a transaction reads). */
const WRITES = /^\s*(begin\s+(immediate|exclusive)|insert|update|delete|replace|create|drop|alter)\b/i;

export class NodeSqliteConnection implements DatabaseConnection {
  readonly #path: string;
  readonly #retrying: Retrying;
  readonly #statements = new Map<string, Prepared>();
  #db: DatabaseSync;
  /** Opened read-only, or a write failed as if it were: reopen when the file is writable. */
  #readOnly: boolean;

  constructor(path: string, retrying: Retrying) {
    this.#path = path;
    this.#retrying = retrying;
    this.#readOnly = !writable(path);
    this.#db = openFile(path);
  }

  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  /** Called by whoever just acquired the connection: one access(2) while read-only, else nothing. */
  reopenIfWritableAgain(): void {
    if (!this.#readOnly || this.#db.isTransaction || !writable(this.#path)) return;
    const fresh = openFile(this.#path); // if this throws, the old connection stays
    this.close();
    this.#db = fresh;
    this.#readOnly = false;
  }

  #prepare(sqlText: string): Prepared {
    let prepared = this.#statements.get(sqlText);
    if (prepared) {
      // Re-insert to keep the Map in least-recently-used order.
      this.#statements.delete(sqlText);
    } else {
      const statement = this.#db.prepare(sqlText);
      // columns() asks SQLite for every column's origin (database, table, column, declared
      // type): dearer than running a small query, so it is asked once per statement. Whether a
      // statement returns rows is fixed by its text; its columns are too, but for `select *`
      // after another process altered the table (SQLite re-prepares it): see namesOf().
      const names = statement.columns().map((column) => column.name);
      // Rows come as arrays and become plain objects here: node:sqlite's own row objects have a
      // null prototype and are built in dictionary mode, so copying and reading them costs
      // more than SQLite's step (callers, and deepEqual, expect plain objects).
      statement.setReturnArrays(true);
      prepared = { statement, names };
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
    }
    this.#statements.set(sqlText, prepared);
    return prepared;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = compiledQuery.parameters.map(toSqliteValue);
    if (this.#db.isTransaction) {
      try {
        return Promise.resolve(this.#run<R>(compiledQuery.sql, parameters));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.#retrying(() => this.#run<R>(compiledQuery.sql, parameters), WRITES.test(compiledQuery.sql));
  }

  #run<R>(sqlText: string, parameters: SQLInputValue[]): QueryResult<R> {
    try {
      return this.#statement<R>(sqlText, parameters);
    } catch (error) {
      if (isSqlite(error, REOPEN_CODES)) this.#readOnly = true;
      throw error;
    }
  }

  #statement<R>(sqlText: string, parameters: SQLInputValue[]): QueryResult<R> {
    const prepared = this.#prepare(sqlText);
    const { statement } = prepared;
    if (prepared.names.length > 0) {
      // SELECT, PRAGMA, or a write with RETURNING.
      const rows = statement.all(...parameters) as unknown as unknown[][];
      const names = namesOf(prepared, rows[0]);
      return { rows: rows.map((values) => rowOf<R>(names, values)) };
    }
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  /** A read outside Kysely's queue (the driver checks the connection is free): its rows. */
  readNow(sqlText: string, parameters: readonly unknown[]): Record<string, unknown>[] {
    return this.#statement<Record<string, unknown>>(sqlText, parameters.map(toSqliteValue)).rows;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const prepared = this.#prepare(compiledQuery.sql);
    for (const values of prepared.statement.iterate(...compiledQuery.parameters.map(toSqliteValue))) {
      const row = values as unknown as unknown[];
      yield { rows: [rowOf<R>(namesOf(prepared, row), row)] };
    }
  }
}

/** node:sqlite binds only null, numbers, bigints, strings and bytes. */
function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`cannot bind a ${typeof value} to an SQLite parameter`);
}
