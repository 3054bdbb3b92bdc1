// A Kysely driver over a pg Pool that keeps the hot reads prepared (ADR 0068). Kysely's own
// PostgresDriver sends every query as an unnamed statement, so PostgreSQL parses and plans it
// on every run: for the person read that was ~380 µs of the server's CPU against ~75 µs
// prepared. A compiled query that carries a statement name (statement-name.ts, set by
// prepare()) is sent as pg's `{ name, text, values }`: pg parses it once per connection (it
// remembers which names its connection has parsed) and afterwards only binds and executes, and
// PostgreSQL keeps its plan. A replaced connection (the server restarted, a backend was
// terminated) is a new pg client that knows no names, so it prepares again on first use.
// Everything else — transactions, savepoints, unnamed queries — is what Kysely's driver does.
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
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
import type pg from 'pg';
import { statementNameOf, wantsGenericPlan } from '../statement-name.ts';

/** The dialect: Kysely's PostgreSQL adapter and compiler, this file's driver. */
export class PreparingPostgresDialect implements Dialect {
  readonly #pool: pg.Pool;
  readonly #generic: pg.Pool | undefined;
  /** `generic`: a pool whose connections keep generic plans, for queries that ask for one. */
  constructor(pool: pg.Pool, generic?: pg.Pool) {
    this.#pool = pool;
    this.#generic = generic;
  }
  createDriver(): Driver {
    return new PreparingPostgresDriver(this.#pool, this.#generic && new GenericPlans(this.#generic));
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/**
 * SQLSTATEs after which a named statement on this connection cannot be used again: 26000, it
 * no longer exists on the server (`DEALLOCATE ALL`, `DISCARD ALL`, a pooler between us and
 * PostgreSQL that hands out another backend), and 0A000 "cached plan must not change result
 * type" (a column it returns changed type while the connection was open, e.g. a migration by
 * a newer version on a shared database). pg still believes the name parsed.
 */
function isStaleStatement(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e !== 'object' || e === null) return false;
  return (
    e.code === '26000' ||
    (e.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan'))
  );
}

/** What a connection of the generic pool runs first (open.ts), before any statement of its own. */
export const GENERIC_PLAN_SETTING = 'set plan_cache_mode = force_generic_plan';

/** Distinct statements a connection of the generic pool prepares before it is replaced. */
export const MAX_GENERIC_STATEMENTS = 64;

/**
 * Statements that ask for a generic plan (statement-name.ts), outside transactions: on a pool
 * of their own whose connections have `plan_cache_mode = force_generic_plan` (open.ts), so that
 * PostgreSQL plans each once per connection, while every other statement keeps its custom plans
 * (ADR 0115). Their texts vary with a search's shape (its words' keys): a connection that has
 * prepared MAX_GENERIC_STATEMENTS of them is closed on release, which bounds what each backend
 * keeps.
 */
class GenericPlans {
  readonly #pool: pg.Pool;
  readonly #names = new WeakMap<pg.PoolClient, Set<string>>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** `name` run with `values`; `unnamed` answers instead when the name went stale. */
  async run(
    name: string,
    text: string,
    values: unknown[],
    unnamed: () => Promise<pg.QueryResult>,
  ): Promise<pg.QueryResult> {
    const client = await this.#pool.connect();
    let names = this.#names.get(client);
    if (!names) this.#names.set(client, (names = new Set()));
    names.add(name);
    let discard = names.size > MAX_GENERIC_STATEMENTS;
    try {
      return await client.query({ name, text, values });
    } catch (error) {
      // Whatever failed, the next statement gets a fresh connection (searches fail rarely).
      discard = true;
      if (!isStaleStatement(error)) throw error;
      return await unnamed();
    } finally {
      client.release(discard ? true : undefined);
    }
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}

class PreparingPostgresDriver implements Driver {
  #pool: pg.Pool | undefined;
  readonly #generic: GenericPlans | undefined;

  constructor(pool: pg.Pool, generic?: GenericPlans) {
    this.#pool = pool;
    this.#generic = generic;
  }

  async init(): Promise<void> {}

  /**
   * A connection that checks a client out of the pool at its first statement that needs one: a
   * query asking for a generic plan runs on the other pool (ADR 0115) and never waits for, nor
   * holds, a connection of this one.
   */
  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#pool) throw new Error('driver has already been destroyed');
    return new PreparingConnection(() => this.#checkout(), this.#generic);
  }

  async #checkout(): Promise<pg.PoolClient> {
    const pool = this.#pool;
    if (!pool) throw new Error('driver has already been destroyed');
    const client = await pool.connect();
    if (!this.#pool) {
      client.release();
      throw new Error('driver has already been destroyed');
    }
    return client;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(text));
    (connection as PreparingConnection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as PreparingConnection).inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as PreparingConnection).inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteSavepoint(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteSavepoint(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteSavepoint(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PreparingConnection).release();
  }

  async destroy(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    if (pool) await Promise.all([pool.end(), this.#generic?.end()]);
  }
}

/** Savepoint names come from code (Kysely's API), never from a request; quoted all the same. */
function quoteSavepoint(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

class PreparingConnection implements DatabaseConnection {
  readonly #checkout: () => Promise<pg.PoolClient>;
  /** The pooled client, once a statement needed one. */
  #client: Promise<pg.PoolClient> | undefined;
  readonly #generic: GenericPlans | undefined;
  /** Between BEGIN and COMMIT/ROLLBACK: a failed statement has aborted the transaction. */
  inTransaction = false;
  /** A named statement went stale here: the pool discards this connection on release. */
  #discard = false;

  constructor(checkout: () => Promise<pg.PoolClient>, generic: GenericPlans | undefined) {
    this.#checkout = checkout;
    this.#generic = generic;
  }

  #pooled(): Promise<pg.PoolClient> {
    return (this.#client ??= this.#checkout());
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const values = compiledQuery.parameters as unknown[];
    const name = statementNameOf(compiledQuery);
    const text = compiledQuery.sql;
    try {
      // Inside a transaction every statement runs on its connection (and plans as it does).
      const generic = !this.inTransaction && wantsGenericPlan(compiledQuery) ? this.#generic : undefined;
      const unnamed = async () => (await this.#pooled()).query(text, values);
      const result =
        name === undefined
          ? await unnamed()
          : generic
            ? await generic.run(name, text, values, unnamed)
            : await this.#runNamed(await this.#pooled(), name, text, values);
      return toQueryResult<R>(result);
    } catch (error) {
      throw withCallerStack(error, new Error());
    }
  }

  async #runNamed(
    client: pg.PoolClient,
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult> {
    try {
      return await client.query({ name, text, values });
    } catch (error) {
      if (!isStaleStatement(error)) throw error;
      // pg would keep sending Bind for a name the server has forgotten or cannot plan any
      // more: this connection goes; a new one prepares again. Outside a transaction the same
      // statement, unnamed, answers now; inside one the error has aborted the transaction.
      this.#discard = true;
      if (this.inTransaction) throw error;
      return await client.query(text, values);
    }
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    yield* [];
    throw new Error('streaming is not supported by this PostgreSQL driver');
  }

  release(): void {
    const discard = this.#discard ? true : undefined;
    this.#client?.then((client) => client.release(discard)).catch(() => undefined);
  }
}

function toQueryResult<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return {
    ...(changed && { numAffectedRows: BigInt(rowCount ?? 0) }),
    rows: (rows ?? []) as R[],
  };
}

/** The caller's frames after pg's (as Kysely's driver does): where the failing query came from. */
function withCallerStack(error: unknown, here: Error): unknown {
  if (error instanceof Error && typeof error.stack === 'string' && here.stack) {
    error.stack += `\n${here.stack.split('\n').slice(1).join('\n')}`;
  }
  return error;
}
