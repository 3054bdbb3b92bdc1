// A Kysely dialect over Node's built-in `node:sqlite` (DatabaseSync): no native addon.
// SQLite has one connection per process here; a mutex hands it to one query or transaction
// at a time. Writers take the lock up front (BEGIN IMMEDIATE) so two processes sharing the file
// queue on busy_timeout instead of failing half-way through a transaction with SQLITE_BUSY.
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

export interface NodeSqliteOptions {
  /** File path or `:memory:`. */
  readonly path: string;
  /** Milliseconds a writer waits for another process's lock before SQLITE_BUSY (default 5000). */
  readonly busyTimeoutMs?: number;
}

export class NodeSqliteDialect implements Dialect {
  readonly #options: NodeSqliteOptions;
  constructor(options: NodeSqliteOptions) {
    this.#options = options;
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.#options);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** FIFO lock: each waiter gets the connection in arrival order. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return acquired;
  }
}

class NodeSqliteDriver implements Driver {
  readonly #options: NodeSqliteOptions;
  readonly #mutex = new Mutex();
  #release: (() => void) | undefined;
  #connection: NodeSqliteConnection | undefined;

  constructor(options: NodeSqliteOptions) {
    this.#options = options;
  }

  async init(): Promise<void> {
    const db = new DatabaseSync(this.#options.path, { enableForeignKeyConstraints: true });
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(this.#options.busyTimeoutMs ?? 5000)}`);
    if (this.#options.path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL'); // safe with WAL: a crash loses at most the last commit
    db.exec('PRAGMA foreign_keys = ON');
    this.#connection = new NodeSqliteConnection(db);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    this.#release = release;
    if (!this.#connection) {
      release();
      throw new Error('node:sqlite driver used before init() or after destroy()');
    }
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // A read-only transaction need not block writers of other processes.
    const mode = settings.accessMode === 'read only' ? 'deferred' : 'immediate';
    await connection.executeQuery(CompiledQuery.raw(`begin ${mode}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    // Wait for whoever holds the connection, then close it.
    const release = await this.#mutex.lock();
    try {
      this.#connection?.close();
      this.#connection = undefined;
    } finally {
      release();
    }
  }
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Statements are cached by SQL text: preparing is a large part of a small query's cost. */
const STATEMENT_CACHE_SIZE = 256;

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  #prepare(sqlText: string): StatementSync {
    let statement = this.#statements.get(sqlText);
    if (statement) {
      // Re-insert to keep the Map in least-recently-used order.
      this.#statements.delete(sqlText);
    } else {
      statement = this.#db.prepare(sqlText);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
    }
    this.#statements.set(sqlText, statement);
    return statement;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters.map(toSqliteValue);
    if (statement.columns().length > 0) {
      // SELECT, PRAGMA, or a write with RETURNING.
      // node:sqlite rows have a null prototype; callers (and deepEqual) expect plain objects.
      return { rows: statement.all(...parameters).map((row) => ({ ...row }) as R) };
    }
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.#prepare(compiledQuery.sql);
    for (const row of statement.iterate(...compiledQuery.parameters.map(toSqliteValue))) {
      yield { rows: [{ ...row } as R] };
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
