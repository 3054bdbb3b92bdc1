// A list of ids as one statement parameter (an int array on PostgreSQL, JSON text on SQLite), so
// every length of list is the same statement: a prepared one stays prepared (ADR 0068) instead of
// being parsed and planned for each length.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { detectDialect } from './open.ts';
import { param } from './prepared.ts';

/** `column` is one of the ids in `list`, one parameter holding an `idList` value. */
function inList<DB>(db: Kysely<DB>, column: string, list: unknown): RawBuilder<boolean> {
  return detectDialect(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(${list}::int[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${list}))`;
}

/** `column` is one of the ids of the parameter `name` (give its value with `idList`). */
export function inIdList<DB>(db: Kysely<DB>, column: string, name: string): RawBuilder<boolean> {
  return inList(db, column, param<number[] | string>(name));
}

/** The value of an `inIdList` parameter. */
export function idList<DB>(db: Kysely<DB>, ids: readonly number[]): number[] | string {
  return detectDialect(db) === 'postgres' ? [...ids] : JSON.stringify(ids);
}

/**
 * `column` is one of `ids`, given now as one parameter: for a query built per request, whose
 * text then stays the same for every length of list (and can stay prepared, ADR 0115).
 */
export function inIds<DB>(db: Kysely<DB>, column: string, ids: readonly number[]): RawBuilder<boolean> {
  return inList(db, column, idList(db, ids));
}
