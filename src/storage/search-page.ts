// Keyset paging over a full-text search, by the plan fulltext.ts chose. For a common word
// (SQLite `walk` plan) the page is found by walking the list in key order and testing rows
// one by one, so a page costs about what an unfiltered page does instead of sorting tens of
// thousands of matches. The walk is bounded (WALK_WINDOW rows): where matches are sparse in
// that stretch of the list, the rest of the page comes from a sweep over the index against the
// whole match set. Every plan returns the same rows in the same order.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { FullTextPlan, RowFilter } from './fulltext-plan.ts';
import type { Direction, Key, KeysetQueries } from './keyset.ts';

/** Rows beyond `from` in `direction` (`inclusive`: or at it), up to and including `to`. */
export interface KeyRange {
  readonly direction: Direction;
  readonly from?: Key | undefined;
  readonly inclusive: boolean;
  readonly to?: Key | undefined;
}

/** A list ordered by a unique key, as a store provides it. */
export interface KeysetScan<T> {
  readonly keyTypes: readonly ('string' | 'number')[];
  /** Live rows satisfying `filter` (none: all) within `range`, in direction order, at most `limit`. */
  rows(filter: RowFilter | undefined, range: KeyRange, limit: number): Promise<T[]>;
  /**
   * The same selecting only the id, for existence probes: unordered (any rows) unless
   * `ordered`. Unordered lets the engine stop at the first match it meets in any plan; the walk
   * needs the key order, or SQLite may scan the whole table probing FTS5 row by row.
   */
  keys(filter: RowFilter | undefined, range: KeyRange, limit: number, ordered: boolean): Promise<unknown[]>;
  /** The key of the row `offset` places into `range`, counting every row (an index-only walk). */
  keyAt(range: KeyRange, offset: number): Promise<Key | undefined>;
  keyOf(row: T): Key;
}

type Run<R> = (filter: RowFilter | undefined, range: KeyRange, limit: number) => Promise<R[]>;

/** The fewest rows a `walk` probes (≈ 5–17 µs each) before the sweep takes over. */
export const WALK_WINDOW = 256;
/** The most: a walk over this many rows costs about what collecting a rarer word's matches does. */
export const MAX_WALK_WINDOW = 4096;

/** Rows a walk looks at for `limit` matches: twice what a share of `minShare` needs, bounded. */
export function walkWindow(minShare: number, limit: number): number {
  return Math.min(MAX_WALK_WINDOW, Math.max(WALK_WINDOW, Math.ceil((2 * limit) / minShare)));
}

/** WHERE conditions putting the key columns inside `range` (row-value comparisons). */
export function keyRangeFilters(columns: readonly string[], range: KeyRange): Expression<SqlBool>[] {
  const after = range.direction === 'after';
  const tuple = sql.join(columns.map((c) => sql.ref(c)));
  const compare = (op: string, key: Key) => sql<SqlBool>`(${tuple}) ${sql.raw(op)} (${sql.join(key)})`;
  const filters: Expression<SqlBool>[] = [];
  if (range.from) filters.push(compare((after ? '>' : '<') + (range.inclusive ? '=' : ''), range.from));
  if (range.to) filters.push(compare(after ? '<=' : '>=', range.to));
  return filters;
}

/** The first `limit` rows of the search within `range`, in direction order, fetched by `run`. */
export async function searchRows<R>(
  plan: FullTextPlan | undefined,
  keyAt: KeysetScan<unknown>['keyAt'],
  run: Run<R>,
  range: KeyRange,
  limit: number,
): Promise<R[]> {
  if (plan === undefined || plan.kind === 'filter') return run(plan?.filter, range, limit);
  const bound = await keyAt(range, walkWindow(plan.minShare, limit) - 1);
  const walked = await run(plan.probe, { ...range, to: bound }, limit);
  // Enough rows, or the walk reached the end of the list: nothing further can come first.
  if (walked.length >= limit || bound === undefined) return walked;
  const rest = await run(
    await plan.sweep(),
    { direction: range.direction, from: bound, inclusive: false },
    limit - walked.length,
  );
  return [...walked, ...rest];
}

/** keysetPage's queries for a search (or a plain list when `plan` is undefined). */
export function searchKeyset<T>(plan: FullTextPlan | undefined, scan: KeysetScan<T>): KeysetQueries<T> {
  const keyAt = scan.keyAt.bind(scan);
  return {
    keyTypes: scan.keyTypes,
    fetch: (key, direction, limit) =>
      searchRows(plan, keyAt, scan.rows.bind(scan), { direction, from: key, inclusive: false }, limit),
    async exists(key, side) {
      const ordered = plan?.kind === 'walk';
      const keys: Run<unknown> = (filter, range, limit) => scan.keys(filter, range, limit, ordered);
      const found = await searchRows(plan, keyAt, keys, { direction: side, from: key, inclusive: true }, 1);
      return found.length > 0;
    },
    keyOf: scan.keyOf,
  };
}
