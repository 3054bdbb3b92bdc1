// A list read with its row in the same statement: an aggregate subquery that gives the list as
// one JSON array of rows (a person's works, a work's persons and copies). One row per list item
// would repeat the outer row, and a second statement would read from a second snapshot.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { detectDialect } from './open.ts';

/** What the aggregate brings: JSON text (SQLite) or already parsed (pg parses `json`). */
export type JsonRows<T extends readonly unknown[]> = string | T[];

/**
 * `[[column, …], …]` of the subquery's rows in `orderBy` order; `[]` when it has none. Used as
 * the select list of a subquery whose FROM and WHERE the caller writes.
 */
export function jsonRows<T extends readonly unknown[], DB>(
  db: Kysely<DB>,
  columns: readonly Expression<unknown>[],
  orderBy: Expression<unknown>,
): RawBuilder<JsonRows<T>> {
  const list = sql.join(columns);
  return detectDialect(db) === 'postgres'
    ? sql`coalesce(json_agg(json_build_array(${list}) order by ${orderBy}), '[]'::json)`
    : sql`json_group_array(json_array(${list}) order by ${orderBy})`;
}

/** The rows of a `jsonRows` value. */
export function parseJsonRows<T extends readonly unknown[]>(value: JsonRows<T>): T[] {
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}
