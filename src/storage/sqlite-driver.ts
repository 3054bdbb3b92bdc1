// A Kysely dialect over Node's built-in `node:sqlite` (DatabaseSync): no native addon.
// SQLite has one connection per process here; a mutex hands it to one query or transaction
// at a time. Writers take the lock up front (BEGIN IMMEDIATE) so two processes sharing the file
// wait for each other before a transaction starts, not half-way through it. node:sqlite is
// synchronous, so SQLite's busy_timeout would block the event loop (every request of the
// process) while it waits: busy_timeout is 0 and the wait is an asynchronous retry with backoff
// that lends the connection to other queries meanwhile (ADR 0046). A file that could only be
// opened read-only is reopened once it is writable again (sqlite-connection.ts), so fixed
// permissions take effect without a restart.
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
  type TransactionSettings,
} from 'kysely';
import { BUSY_CODES, isSqlite, NodeSqliteConnection } from './sqlite-connection.ts';

export interface NodeSqliteOptions {
  /** File path or `:memory:`. */
  readonly path: string;
  /** Milliseconds a writer waits for another process's lock before BusyError (default 5000). */
  readonly busyTimeoutMs?: number;
}

export class NodeSqliteDialect implements Dialect {
  readonly #options: NodeSqliteOptions;
  #driver: NodeSqliteDriver | undefined;
  constructor(options: NodeSqliteOptions) {
    this.#options = options;
  }
  createDriver(): Driver {
    return (this.#driver = new NodeSqliteDriver(this.#options));
  }
  /** The driver's readNow (below); undefined before Kysely created the driver. */
  readNow(sqlText: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    return this.#driver?.readNow(sqlText, parameters);
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
  /** Holders and waiters: locks asked for and not yet released. */
  #taken = 0;
  lock(): Promise<() => void> {
    this.#taken += 1;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let released = false;
    const releaseOnce = () => {
      if (released) return;
      released = true;
      this.#taken -= 1;
      release();
    };
    const acquired = this.#tail.then(() => releaseOnce);
    this.#tail = this.#tail.then(() => held);
    return acquired;
  }
  /** Nobody holds the lock or waits for it: whoever runs now (synchronously) is alone. */
  get free(): boolean {
    return this.#taken === 0;
  }
}

/** Writers poll at least every 100 ms; a longer silence means the lock was not contended. */
const STREAK_GAP_MS = 1000;

class NodeSqliteDriver implements Driver {
  readonly #options: NodeSqliteOptions;
  readonly #mutex = new Mutex();
  #release: (() => void) | undefined;
  /** Since when, and when last, this process's writers found the lock taken (a write clears it). */
  #busy: { since: number; last: number } | undefined;
  #connection: NodeSqliteConnection | undefined;

  constructor(options: NodeSqliteOptions) {
    this.#options = options;
  }

  async init(): Promise<void> {
    this.#connection = new NodeSqliteConnection(this.#options.path, (attempt, writes) =>
      this.#retrying(attempt, writes),
    );
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    const connection = this.#current();
    try {
      connection.reopenIfWritableAgain();
    } catch (error) {
      this.#lend();
      throw error;
    }
    return connection;
  }

  /**
   * One read, synchronously, when nothing else uses or waits for the connection (no query,
   * no transaction): the same statement on the same connection as a queued read, minus the
   * queue and its promise hops (ADR 0066: the representation cache's change-counter read on
   * every cacheable GET). Undefined — the caller then reads the ordinary way, which waits its
   * turn, retries a busy lock and maps errors — when the connection is taken, and when the
   * read fails for any reason.
   */
  readNow(sqlText: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    const connection = this.#connection;
    if (!connection || !this.#mutex.free || connection.inTransaction) return undefined;
    try {
      return connection.readNow(sqlText, parameters);
    } catch {
      return undefined;
    }
  }

  #current(): NodeSqliteConnection {
    if (this.#connection) return this.#connection;
    this.#lend();
    throw new Error('node:sqlite driver used before init() or after destroy()');
  }

  /** Gives the connection up to the next waiter (the caller holds it). */
  #lend(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  /**
   * Runs one statement outside a transaction (in practice BEGIN IMMEDIATE) until it stops
   * failing because another process holds the lock; between attempts the connection serves
   * this process's other queries. Statements inside a transaction are never retried (the
   * caller holds the connection throughout). The wait ends busyTimeoutMs after this process
   * first found the lock taken, not after this statement did: writes queued behind each other
   * must not each wait the whole time again (the sixth would wait 30 s).
   */
  async #retrying<T>(attempt: () => T, writes: boolean): Promise<T> {
    const connection = this.#current();
    const started = performance.now();
    let delay = 2;
    for (;;) {
      try {
        const result = attempt();
        if (writes) this.#busy = undefined;
        return result;
      } catch (error) {
        if (connection.inTransaction || !isSqlite(error, BUSY_CODES)) throw error;
        const now = performance.now();
        // A streak of "locked" ends when nobody found the lock taken for a while.
        if (this.#busy === undefined || now - this.#busy.last > STREAK_GAP_MS)
          this.#busy = { since: started, last: now };
        this.#busy.last = now;
        const deadline = Math.min(started, this.#busy.since) + (this.#options.busyTimeoutMs ?? 5000);
        if (now + delay > deadline) throw error;
      }
      this.#lend();
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
      this.#release = await this.#mutex.lock();
      this.#current();
      delay = Math.min(delay * 2, 100);
    }
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
    this.#lend();
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
