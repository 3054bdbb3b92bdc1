// The list queries the persons and works stores share: live rows in (sort_key, id) order
// within a key range, optionally filtered by a full-text predicate (storage/search-page.ts).
import type { Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import { keyRangeFilters, type Key, type KeyRange } from '../../storage/index.ts';
import type { DB } from '../schema.ts';

export type ListedTable = 'persons' | 'works';

export function keyedList<T extends ListedTable>(db: Kysely<DB>, table: T) {
  const key = [`${table}.sort_key`, `${table}.id`];
  // One cast: Kysely cannot resolve columns of a generic table name, and both tables have
  // the columns used here (id, sort_key, deleted_at).
  const from = () => db.selectFrom(table) as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>;
  const typed = (query: SelectQueryBuilder<DB, 'persons' | 'works', object>) =>
    query as unknown as SelectQueryBuilder<DB, T, object>;

  /** Rows within `range` (live ones only unless `live` is false), unordered. */
  const within = (predicate: Expression<SqlBool> | undefined, range: KeyRange, live = true) => {
    let query = from();
    if (live) query = query.where('deleted_at', 'is', null);
    for (const filter of [...(predicate ? [predicate] : []), ...keyRangeFilters(key, range)])
      query = query.where(filter);
    return query;
  };
  /** The same in key order (descending when walking backwards). */
  const ordered = (predicate: Expression<SqlBool> | undefined, range: KeyRange, live = true) => {
    const order = range.direction === 'after' ? 'asc' : 'desc';
    return within(predicate, range, live).orderBy('sort_key', order).orderBy('id', order);
  };

  return {
    inOrder: (predicate: Expression<SqlBool> | undefined, range: KeyRange) =>
      typed(ordered(predicate, range)),
    keys: (predicate: Expression<SqlBool> | undefined, range: KeyRange, n: number, inKeyOrder: boolean) =>
      (inKeyOrder ? ordered(predicate, range) : within(predicate, range)).select('id').limit(n).execute(),
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
