// Wraps any Kysely dialect so that every query error passes through mapDatabaseError:
// stores catch ConflictError / BusyError whichever engine runs underneath.
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { mapDatabaseError } from './errors.ts';

export function withErrorMapping(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new ErrorMappingDriver(dialect.createDriver()),
  };
}

class ErrorMappingDriver implements Driver {
  readonly #inner: Driver;
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return mapped(() => this.#inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await mapped(() => this.#inner.acquireConnection());
    let wrapper = this.#wrapped.get(connection);
    if (!wrapper) {
      wrapper = new ErrorMappingConnection(connection);
      this.#wrapped.set(connection, wrapper);
      this.#unwrapped.set(wrapper, connection);
    }
    return wrapper;
  }

  #inner_(connection: DatabaseConnection): DatabaseConnection {
    return this.#unwrapped.get(connection) ?? connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return mapped(() => this.#inner.beginTransaction(this.#inner_(connection), settings));
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return mapped(() => this.#inner.commitTransaction(this.#inner_(connection)));
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return mapped(() => this.#inner.rollbackTransaction(this.#inner_(connection)));
  }
  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['savepoint']>>[2],
  ): Promise<void> {
    await mapped(async () => this.#inner.savepoint?.(this.#inner_(connection), name, compile));
  }
  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ): Promise<void> {
    await mapped(async () => this.#inner.rollbackToSavepoint?.(this.#inner_(connection), name, compile));
  }
  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ): Promise<void> {
    await mapped(async () => this.#inner.releaseSavepoint?.(this.#inner_(connection), name, compile));
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(this.#inner_(connection));
  }
  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

class ErrorMappingConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  constructor(inner: DatabaseConnection) {
    this.#inner = inner;
  }
  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return mapped(() => this.#inner.executeQuery<R>(compiledQuery));
  }
  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.#inner.streamQuery<R>(compiledQuery, chunkSize);
    } catch (error) {
      throw mapDatabaseError(error);
    }
  }
}

async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw mapDatabaseError(error);
  }
}
