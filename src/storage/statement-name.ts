// A compiled query that asks to stay prepared on the server carries a statement name (ADR 0068).
// prepare() (prepared.ts) sets it on the hot reads it compiled once; the PostgreSQL driver
// (postgres/driver.ts) then parses and plans the statement once per connection and afterwards
// only binds and executes it. SQLite's driver ignores the name: it keeps every statement it
// has compiled (sqlite-connection.ts).
//
// A query may also ask for one generic plan (ADR 0115): PostgreSQL then plans it once per
// connection, not on every run. For the term index's scans, whose plan is fixed by their shape
// and not by the keys they are given, planning cost as much as running them.
import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';

const STATEMENT_NAME = Symbol('shelfmark.statementName');
const GENERIC_PLAN = Symbol('shelfmark.genericPlan');

/** A compiled query as prepare() hands it to the driver. */
export type NamedQuery = CompiledQuery & {
  readonly [STATEMENT_NAME]?: string;
  readonly [GENERIC_PLAN]?: true;
};

/**
 * The name a statement of this text is prepared under: derived from the text alone, so two
 * texts never share a name (the pg driver refuses a name reused for another text) and every
 * process gives one text the same name. Within PostgreSQL's 63-byte identifiers.
 */
export function statementName(sqlText: string): string {
  return `shelfmark_${createHash('sha256').update(sqlText).digest('hex').slice(0, 32)}`;
}

/** `query` marked to be kept prepared under `name`. */
export function withStatementName<Q extends CompiledQuery>(query: Q, name: string): Q {
  return { ...query, [STATEMENT_NAME]: name };
}

/** The name a compiled query asks to be prepared under, if any. */
export function statementNameOf(query: CompiledQuery): string | undefined {
  return (query as NamedQuery)[STATEMENT_NAME];
}

/**
 * `query` kept prepared under the name of its text, with one generic plan: for statements whose
 * best plan does not depend on their parameters' values (postgres/driver.ts runs them where
 * PostgreSQL keeps generic plans).
 */
export function withGenericPlan<Q extends CompiledQuery>(query: Q): Q {
  return { ...withStatementName(query, statementName(query.sql)), [GENERIC_PLAN]: true };
}

/** Whether a compiled query asks for a generic plan. */
export function wantsGenericPlan(query: CompiledQuery): boolean {
  return (query as NamedQuery)[GENERIC_PLAN] === true;
}
