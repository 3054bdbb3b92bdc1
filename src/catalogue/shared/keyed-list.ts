// The list queries the persons and works stores share: live rows in (sort_key, id) order
// within a key range, optionally filtered by a full-text predicate (storage/search-page.ts).
import type { Kysely, SelectQueryBuilder } from 'kysely';
import {
  keyRangeFilters,
  type FullTextPlan,
  type Key,
  type KeyRange,
  type RowFilter,
} from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import type { Total } from '../model.ts';

/**
 * Matches a search counts before it stops and says "at least" (ADR 0025): a common word's
 * count costs about cap / share probes, so it stays as cheap as a page.
 */
export const SEARCH_COUNT_CAP = 500;

const EVERYTHING: KeyRange = { direction: 'after', inclusive: false };

export type ListedTable = 'persons' | 'works';

export function keyedList<T extends ListedTable>(db: Kysely<DB>, table: T) {
  const key = [`${table}.sort_key`, `${table}.id`];
  // One cast: Kysely cannot resolve columns of a generic table name, and both tables have
  // the columns used here (id, sort_key, deleted_at).
  const from = () => db.selectFrom(table) as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>;
  const typed = (query: SelectQueryBuilder<DB, 'persons' | 'works', object>) =>
    query as unknown as SelectQueryBuilder<DB, T, object>;

  /**
   * Rows within `range` (live ones only unless `live` is false), unordered. A collecting filter
   * is fenced in a subquery (`offset 0`, aliased as the table): the engine gathers its matches
   * first and orders only those, whatever it guesses their number to be.
   */
  const within = (filter: RowFilter | undefined, range: KeyRange, live = true) => {
    let query = from();
    if (live) query = query.where('deleted_at', 'is', null);
    for (const where of [...(filter ? [filter.where] : []), ...keyRangeFilters(key, range)])
      query = query.where(where);
    if (!filter?.collect) return query;
    const fenced = query.selectAll().offset(0).as(table);
    return db.selectFrom(fenced) as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>;
  };
  /** The same in key order (descending when walking backwards). */
  const ordered = (filter: RowFilter | undefined, range: KeyRange, live = true) => {
    const order = range.direction === 'after' ? 'asc' : 'desc';
    return within(filter, range, live).orderBy('sort_key', order).orderBy('id', order);
  };

  return {
    /**
     * The list's size: the live rows (a count the triggers of migration 0005 keep), or for a search its matches
     * up to `cap` (a walk plan tests rows one by one, so it counts with its probe).
     */
    async total(plan: FullTextPlan | undefined, cap = SEARCH_COUNT_CAP): Promise<Total> {
      if (plan === undefined) {
        const row = await db
          .selectFrom('live_row_counts')
          .select('n')
          .where('name', '=', table)
          .executeTakeFirst();
        return { count: Number(row?.n ?? 0), exact: true };
      }
      const filter = plan.kind === 'filter' ? plan.filter : plan.probe;
      const rows = await within(filter, EVERYTHING)
        .select('id')
        .limit(cap + 1)
        .execute();
      return rows.length > cap ? { count: cap, exact: false } : { count: rows.length, exact: true };
    },
    inOrder: (filter: RowFilter | undefined, range: KeyRange) => typed(ordered(filter, range)),
    keys: (filter: RowFilter | undefined, range: KeyRange, n: number, inKeyOrder: boolean) =>
      (inKeyOrder ? ordered(filter, range) : within(filter, range)).select('id').limit(n).execute(),
    async keyAt(range: KeyRange, offset: number): Promise<Key | undefined> {
      const row = await ordered(undefined, range, false)
        .select(['sort_key', 'id'])
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row && [row.sort_key, row.id];
    },
  };
}
