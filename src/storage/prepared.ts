// Queries built and compiled once, then run with fresh parameters. Building a Kysely query and
// compiling it to SQL costs more than SQLite needs to answer a small indexed lookup, so the hot
// read paths (a resource by slug or id) must not do it per request (ADR 0047).
//
// A prepared query is written as an ordinary Kysely query whose variable values are `param()`
// placeholders. The first run on an engine compiles it; later runs only substitute the values
// into the compiled parameter list. The compiled form is kept per engine (SQLite/PostgreSQL),
// not per Kysely instance, so a transaction and the pool share it: that is sound as long as no
// Kysely plugin rewrites queries, which prepare() checks. Each compiled query carries a
// statement name (statement-name.ts): PostgreSQL then parses and plans it once per connection
// instead of on every run (ADR 0068).
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { detectDialect, immediateReadOf, type DialectName } from './open.ts';
import { statementName, withStatementName } from './statement-name.ts';

/** Placeholder for a value supplied at run time; Kysely binds it as an ordinary parameter. */
class Placeholder {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** A run-time value named `name`, typed as the column it is compared with. */
export function param<T>(name: string): T {
  return new Placeholder(name) as unknown as T;
}

export interface PreparedQuery<A extends Record<string, unknown>, R, DB> {
  /** All rows, on `db` or a transaction of it. */
  execute(db: Kysely<DB>, args: A): Promise<R[]>;
  /** The first row or undefined. */
  executeTakeFirst(db: Kysely<DB>, args: A): Promise<R | undefined>;
}

/**
 * `build(db)` returns the query with `param('name')` wherever a value of `args.name` belongs.
 * It is called once per engine, on the first run.
 */
export function prepare<A extends Record<string, unknown>, R, DB>(
  build: (db: Kysely<DB>) => Compilable<R>,
): PreparedQuery<A, R, DB> {
  const compiled = new Map<
    DialectName,
    { query: CompiledQuery<R>; slots: (string | undefined)[]; select: boolean }
  >();

  function compile(db: Kysely<DB>) {
    const dialect = detectDialect(db);
    let entry = compiled.get(dialect);
    if (entry) return entry;
    if (db.getExecutor().plugins.length > 0) {
      throw new Error('prepare(): queries of a Kysely instance with plugins cannot be shared');
    }
    const built = build(db).compile();
    const query = withStatementName(built, statementName(built.sql));
    // Where a parameter is a placeholder, remember its name; other parameters are constants.
    const slots = query.parameters.map((p) => (p instanceof Placeholder ? p.name : undefined));
    entry = { query, slots, select: query.query.kind === 'SelectQueryNode' };
    compiled.set(dialect, entry);
    return entry;
  }

  async function execute(db: Kysely<DB>, args: A): Promise<R[]> {
    const { query, slots, select } = compile(db);
    const parameters = query.parameters.map((constant, i) => {
      const name = slots[i];
      if (name === undefined) return constant;
      if (!(name in args)) throw new Error(`prepared query: no value for parameter "${name}"`);
      return args[name];
    });
    // SQLite with its connection free (no query, no transaction, nobody waiting): the read runs
    // now, the same statement on the same connection, without the queue's promise hops. Else,
    // or if it fails, the usual way, which waits its turn, retries and maps errors (ADR 0118).
    if (select) {
      const rows = immediateReadOf(db)?.(query.sql, parameters);
      if (rows !== undefined) return rows as R[];
    }
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  }

  return {
    execute,
    async executeTakeFirst(db, args) {
      return (await execute(db, args))[0];
    },
  };
}
