// Keyset paging for lists over plain tables — the staff lists and the notices (ADR 0043, 0092):
// a page of rows in the list's order after or before a cursor, by a row-value comparison on the
// list's key columns (both engines), one extra row telling whether there is more and a one-row
// probe for the other side.
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { keysetPage, type Direction, type Key } from '../../storage/index.ts';
import type { Page, PageRequest } from '../model.ts';
import type { DB } from '../tables.ts';

export interface KeyedQuery<TB extends keyof DB, R> {
  /** The list's rows, filtered, without order or limit. */
  readonly rows: () => SelectQueryBuilder<DB, TB, R>;
  /** The key columns, most significant first (unique together), e.g. `loans.due_at`, `loans.id`. */
  readonly columns: readonly string[];
  readonly keyTypes: readonly ('string' | 'number')[];
  keyOf(row: R): Key;
  /** The list runs in descending key order (newest first). */
  readonly descending?: boolean;
}

/**
 * One page. `after` walks in list order, `before` against it; the comparison flips with a
 * descending list, so `after` always means "further down the list".
 */
export async function keyedPage<TB extends keyof DB, R>(
  request: PageRequest,
  q: KeyedQuery<TB, R>,
): Promise<Page<R>> {
  const tuple = sql.join(q.columns.map((c) => sql.ref(c)));
  const forward = (direction: Direction) => (direction === 'after') !== (q.descending ?? false);
  const compare = (key: Key, op: string) => sql<SqlBool>`(${tuple}) ${sql.raw(op)} (${sql.join([...key])})`;
  const ordered = (query: SelectQueryBuilder<DB, TB, R>, ascending: boolean) => {
    let out = query;
    for (const column of q.columns) out = out.orderBy(sql.ref(column), ascending ? 'asc' : 'desc');
    return out;
  };
  return keysetPage(
    { after: request.after, before: request.before, limit: request.limit },
    {
      keyTypes: q.keyTypes,
      keyOf: q.keyOf,
      async fetch(key, direction, limit) {
        const up = forward(direction);
        let query = q.rows();
        if (key !== undefined) query = query.where(compare(key, up ? '>' : '<'));
        return (await ordered(query, up).limit(limit).execute()) as R[];
      },
      async exists(key, side) {
        const up = forward(side);
        const row = await q
          .rows()
          .where(compare(key, up ? '>=' : '<='))
          .limit(1)
          .executeTakeFirst();
        return row !== undefined;
      },
    },
  );
}

/** A page mapped to the list's items, with the list's exact count (every keyset-paged list shows it). */
export async function countedPage<TB extends keyof DB, R, T>(
  request: PageRequest,
  q: KeyedQuery<TB, R>,
  item: (row: R) => T,
): Promise<Page<T>> {
  const page = await keyedPage(request, q);
  return {
    ...page,
    total: { count: await countOf(q.rows()), exact: true },
    items: page.items.map((row) => item(row)),
  };
}

/** How many rows the list has (the staff lists are small beside the catalogue: ADR 0092). */
export async function countOf<TB extends keyof DB, R>(query: SelectQueryBuilder<DB, TB, R>): Promise<number> {
  const row = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
