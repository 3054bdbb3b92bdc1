// The list queries the persons and works stores share: live rows in (sort_key, id) order
// within a key range, optionally filtered by a full-text predicate (storage/search-page.ts).
import {
  sql,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import {
  detectDialect,
  keyRangeFilters,
  termCount,
  termScan,
  withGenericPlan,
  withGroup,
  type FullTextPlan,
  type Key,
  type KeyRange,
  type RowFilter,
} from '../../storage/index.ts';
import type { DB, LiveRowCountsTable } from '../tables.ts';
import type { Total } from '../model.ts';
import type { ListedTable } from '../registry/index.ts';

/**
 * Matches a search counts before it stops and says "at least" (ADR 0025): a common word's
 * count costs about cap / share probes, so it stays as cheap as a page.
 */
export const SEARCH_COUNT_CAP = 500;

const EVERYTHING: KeyRange = { direction: 'after', inclusive: false };

/** The key a list's cursors carry: (sort_key, id). */
export const LIST_KEY_TYPES: readonly ('string' | 'number')[] = ['string', 'number'];

export type { ListedTable };

/** Which live rows a list shows, and how they are counted: the person lists' viewers (ADR 0062). */
export interface ListScope {
  /** A further condition on the listed table's rows (persons: public); none: every live row. */
  readonly where?: Expression<SqlBool>;
  /** The row of live_row_counts counting the rows shown (migrations 0005, 0013). */
  readonly counted: LiveRowCountsTable['name'];
  /** Rows shown that the count leaves out (a member's own private record). */
  readonly uncounted?: () => Promise<number>;
  /**
   * `where` as disjoint conditions, each of which an index yields in key order (several decades
   * of the works list, ADR 0099): an unsearched page reads each in order up to its limit and
   * merges them, instead of reading every row in scope to sort them.
   */
  readonly alternatives?: readonly Expression<SqlBool>[];
  /**
   * A kept table that yields the scope's rows in key order (a decade's persons, migration 0031,
   * ADR 0102): an unsearched page reads the first `limit` keys of each condition (`each`, on the
   * kept row `src`) in order from its index, merges them without repeats (a person of two chosen
   * decades is one row) and joins the rows, which must also meet `rowWhere` (the viewer's scope).
   * `where` stays the whole condition, for the searches' plans and the unordered reads.
   */
  readonly keyed?: KeyedSource;
  /**
   * The scope as keys of the term index (a work's decades, migration 0034, ADR 0113) and what
   * of `where` is left beside them (none: nothing): a search read from that index requires the
   * keys as one more group and tests each candidate's row for the rest only.
   */
  readonly terms?: { readonly keys: readonly string[]; readonly rest?: Expression<SqlBool> | undefined };
}

/** A kept table of (`sort_key`, `idColumn`) keys per condition: ListScope's `keyed`. */
export interface KeyedSource {
  readonly table: 'person_decades';
  readonly idColumn: 'person_id';
  readonly each: readonly Expression<SqlBool>[];
  readonly rowWhere?: Expression<SqlBool>;
}

export function keyedList<T extends ListedTable>(
  db: Kysely<DB>,
  table: T,
  scope: ListScope = { counted: table },
) {
  const key = [`${table}.sort_key`, `${table}.id`];
  const sqlite = detectDialect(db) === 'sqlite';
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
    if (live && scope.where) query = query.where(scope.where);
    for (const where of [...(filter ? [filter.where] : []), ...keyRangeFilters(key, range)])
      query = query.where(where);
    if (!filter?.collect) return query;
    // SQLite takes OFFSET only after a LIMIT (-1: none).
    const fenced = (sqlite ? query.selectAll().limit(-1) : query.selectAll()).offset(0).as(table);
    return db.selectFrom(fenced) as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>;
  };
  /**
   * The rank of the first row (in `side` order) at or beyond `key`: ranks follow the key order,
   * so the rows past a key are exactly those with ranks past this one.
   */
  const rankAt = (key: Key, side: 'after' | 'before', inclusive: boolean) => {
    const op = sql.raw((side === 'after' ? '>' : '<') + (inclusive ? '=' : ''));
    const order = sql.raw(side === 'after' ? 'asc' : 'desc');
    return sql`(select list_rank from ${sql.table(table)} where (sort_key, id) ${op} (${sql.join(key)})
      order by sort_key ${order}, id ${order} limit 1)`;
  };
  /**
   * Live rows matching a ranked FTS5 table within `range`, driven by the index in rowid (= list)
   * order: the engine reads matches from the range's first rank on and stops after the page.
   * `ascending`: read them in ascending rowid order whatever the range's direction — for rows in
   * any order (an existence probe): FTS5 reads a doclist backwards far more dearly than forwards
   * (a several-word probe before page 2's first row: 1.2 ms backwards against 0.5 ms for the
   * whole page forwards, at 1,000,000 works).
   */
  const ranked = (ranked: NonNullable<RowFilter['ranked']>, range: KeyRange, ascending = false) => {
    const after = range.direction === 'after';
    const fts = sql.table(ranked.ftsTable);
    const joined = db
      .selectFrom(sql`${fts}`.as('ranked'))
      .innerJoin(table, (join) => join.on(sql<SqlBool>`${sql.ref(`${table}.list_rank`)} = ranked.rowid`));
    // The same cast as from(): the joined table's columns are those of `persons | works`.
    let query = (joined as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>)
      .where(sql<SqlBool>`${sql.ref(`ranked.${ranked.ftsTable}`)} match ${ranked.match}`)
      .where(`${table}.deleted_at` as 'deleted_at', 'is', null);
    if (scope.where) query = query.where(scope.where);
    if (range.from)
      query = query.where(
        sql<SqlBool>`ranked.rowid ${sql.raw(after ? '>=' : '<=')} ${rankAt(range.from, range.direction, range.inclusive)}`,
      );
    if (range.to)
      query = query.where(
        sql<SqlBool>`ranked.rowid ${sql.raw(after ? '<=' : '>=')} ${rankAt(range.to, after ? 'before' : 'after', true)}`,
      );
    return query.orderBy(sql`ranked.rowid`, after || ascending ? 'asc' : 'desc');
  };
  /**
   * A scoped list keeps only its rows inside the term scan, so its `limit` counts rows shown:
   * what the index holds of the scope as a group of keys, the rest tested on the rows.
   */
  const scoped = (terms: NonNullable<RowFilter['terms']>): NonNullable<RowFilter['terms']> => {
    const grouped = scope.terms ? withGroup(terms, scope.terms.keys) : terms;
    const where = scope.terms ? scope.terms.rest : scope.where;
    if (!where) return grouped;
    const keep = (id: RawBuilder<unknown>) =>
      sql`exists (select 1 from ${sql.table(table)} where ${sql.ref(`${table}.id`)} = ${id} and ${where})`;
    return { ...grouped, keep };
  };
  /**
   * The ids of the first `limit` matches of a term index scan within `range`, read from the index
   * alone: it holds live rows only, and the scan keeps the scope's rows itself. Needing no row of
   * the table, the statement's plan is fixed by its shape: one generic plan per connection (ADR
   * 0115), for a search's sample and for a later page's probe (ADR 0126) alike.
   */
  const termIds = async (terms: NonNullable<RowFilter['terms']>, range: KeyRange, limit: number) => {
    const found = termScan(scoped(terms), range, limit);
    const ids = sql<{ id: number }>`select found.id from ${found} as found
      order by found.sort_key, found.id limit ${limit}`;
    return (await db.executeQuery(withGenericPlan(ids.compile(db)))).rows;
  };
  /**
   * Live rows matching a term index (PostgreSQL) within `range`: the scan finds the first
   * `limit` matches' keys in list order from the range's start, then the rows are joined.
   */
  const termRows = (terms: NonNullable<RowFilter['terms']>, range: KeyRange, limit: number) => {
    const order = range.direction === 'after' ? 'asc' : 'desc';
    const where = scope.where;
    const scan = termScan(scoped(terms), range, limit).as('found');
    let query = (
      db
        .selectFrom(scan)
        .innerJoin(table, (join) =>
          join.on(sql<SqlBool>`${sql.ref(`${table}.id`)} = found.id`),
        ) as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>
    ).where(`${table}.deleted_at` as 'deleted_at', 'is', null);
    if (where) query = query.where(where);
    // A scan range has no end; a walk's bounded window (never used with this plan) would.
    for (const where of keyRangeFilters(key, { direction: range.direction, inclusive: true, to: range.to }))
      query = query.where(where);
    return query.orderBy(`${table}.sort_key` as 'sort_key', order).orderBy(`${table}.id` as 'id', order);
  };
  /**
   * Live rows in scope within `range`, in key order, read as the scope's alternatives: the first
   * `limit` of each (in order from its index), merged (aliased as the table).
   */
  const merged = (alternatives: readonly Expression<SqlBool>[], range: KeyRange, limit: number) => {
    const order = range.direction === 'after' ? 'asc' : 'desc';
    const branches = alternatives.map((where, i) => {
      let query = from().where('deleted_at', 'is', null).where(where);
      for (const bound of keyRangeFilters(key, range)) query = query.where(bound);
      const first = query.selectAll().orderBy('sort_key', order).orderBy('id', order).limit(limit);
      return sql`select * from (${first}) as ${sql.id(`alternative${i}`)}`;
    });
    const union = sql`(${sql.join(branches, sql` union all `)})`.as(table);
    return (db.selectFrom(union) as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>)
      .orderBy('sort_key', order)
      .orderBy('id', order);
  };
  /**
   * Live rows in scope within `range`, in key order, read from the scope's kept keys: the first
   * `limit` keys of each condition in order from its index, merged without repeats, then joined
   * to their rows (aliased as the table).
   */
  const sourced = (source: KeyedSource, range: KeyRange, limit: number) => {
    const order = sql.raw(range.direction === 'after' ? 'asc' : 'desc');
    const srcKey = ['src.sort_key', `src.${source.idColumn}`];
    const branches = source.each.map((where, i) => {
      const conditions = [
        sql<SqlBool>`${sql.ref(`${table}.deleted_at`)} is null`,
        where,
        ...(source.rowWhere ? [source.rowWhere] : []),
        ...keyRangeFilters(srcKey, range),
      ];
      return sql`select * from (select ${sql.ref(`src.${source.idColumn}`)} as id, src.sort_key as sort_key
        from ${sql.table(source.table)} src join ${sql.table(table)}
          on ${sql.ref(`${table}.id`)} = ${sql.ref(`src.${source.idColumn}`)}
        where ${sql.join(conditions, sql` and `)}
        order by src.sort_key ${order}, ${sql.ref(`src.${source.idColumn}`)} ${order} limit ${limit}) as ${sql.id(`source${i}`)}`;
    });
    const keys = sql`(${sql.join(branches, sql` union `)})`.as('keyed');
    const joined = db
      .selectFrom(keys)
      .innerJoin(table, (join) => join.on(sql<SqlBool>`${sql.ref(`${table}.id`)} = keyed.id`));
    const direction = range.direction === 'after' ? 'asc' : 'desc';
    return (joined as unknown as SelectQueryBuilder<DB, 'persons' | 'works', object>)
      .orderBy(`${table}.sort_key` as 'sort_key', direction)
      .orderBy(`${table}.id` as 'id', direction);
  };
  /** The same in key order (descending when walking backwards); `limit`: the most rows wanted. */
  const ordered = (
    filter: RowFilter | undefined,
    range: KeyRange,
    live = true,
    limit = SEARCH_COUNT_CAP + 1,
  ) => {
    if (filter?.ranked) return ranked(filter.ranked, range);
    if (filter?.terms) return termRows(filter.terms, range, limit);
    if (filter === undefined && live && scope.keyed) return sourced(scope.keyed, range, limit);
    if (filter === undefined && live && scope.alternatives) return merged(scope.alternatives, range, limit);
    const order = range.direction === 'after' ? 'asc' : 'desc';
    return within(filter, range, live).orderBy('sort_key', order).orderBy('id', order);
  };

  return {
    /**
     * The list's size: the rows shown (a count the triggers of migrations 0005 and 0013 keep), or for a search its matches
     * up to `cap` (a walk plan tests rows one by one, so it counts with its probe).
     */
    async total(plan: FullTextPlan | undefined, cap = SEARCH_COUNT_CAP): Promise<Total> {
      if (plan === undefined) {
        const row = await db
          .selectFrom('live_row_counts')
          .select('n')
          .where('name', '=', scope.counted)
          .executeTakeFirst();
        return { count: Number(row?.n ?? 0) + ((await scope.uncounted?.()) ?? 0), exact: true };
      }
      const filter = plan.kind === 'filter' ? plan.filter : plan.probe;
      if (filter.terms) {
        // Any cap + 1 matches will do: the term index counts them without their rows (ADR 0065).
        const counted = sql<{ n: number }>`select ${termCount(scoped(filter.terms), cap + 1)} as n`;
        const { rows } = await db.executeQuery(withGenericPlan(counted.compile(db)));
        const n = Number(rows[0]?.n ?? 0);
        return n > cap ? { count: cap, exact: false } : { count: n, exact: true };
      }
      // The ranked index counts by reading its first matches in rowid order, like a page.
      const rows = await (
        filter.ranked ? ordered(filter, EVERYTHING, true, cap + 1) : within(filter, EVERYTHING)
      )
        .select(`${table}.id`)
        .limit(cap + 1)
        .execute();
      return rows.length > cap ? { count: cap, exact: false } : { count: rows.length, exact: true };
    },
    /**
     * The ids of up to `cap + 1` rows shown (live, in scope, matching `plan`): read as the total
     * reads them (in list order from a ranked or term index, in any order otherwise), for counting
     * what they hold (the works' facets, ADR 0094).
     */
    async sample(plan: FullTextPlan | undefined, cap = SEARCH_COUNT_CAP): Promise<number[]> {
      const filter = plan === undefined ? undefined : plan.kind === 'filter' ? plan.filter : plan.probe;
      if (filter?.terms) {
        // No row of the table: a row read per match, at random, was most of the cost of a common
        // word's 501 at 1,000,000 works.
        return (await termIds(filter.terms, EVERYTHING, cap + 1)).map((row) => Number(row.id));
      }
      // Kept keys are read in order too: their first rows, not every row of the condition.
      const rows = await (
        filter?.ranked || (filter === undefined && scope.keyed)
          ? ordered(filter, EVERYTHING, true, cap + 1)
          : within(filter, EVERYTHING)
      )
        .select(sql<number>`${sql.ref(`${table}.id`)}`.as('id'))
        .limit(cap + 1)
        .execute();
      return rows.map((row) => Number(row.id));
    },
    /**
     * Whether `sample` reads `plan`'s matches in list order (a ranked or term index, kept keys),
     * so that its first ids are a first page's rows.
     */
    sampleInOrder(plan: FullTextPlan | undefined): boolean {
      if (plan === undefined) return scope.keyed !== undefined;
      return plan.kind === 'filter' && (plan.filter.terms !== undefined || plan.filter.ranked !== undefined);
    },
    /** Rows in key order; `limit` bounds what a term index scan reads (the caller limits too). */
    inOrder: (filter: RowFilter | undefined, range: KeyRange, limit: number) =>
      typed(ordered(filter, range, true, limit)),
    async keys(filter: RowFilter | undefined, range: KeyRange, n: number, inKeyOrder: boolean) {
      // A probe of the term index (whether a page has rows on its cursor's other side): joining
      // the rows had it parsed and planned for every page after the first (ADR 0126).
      if (filter?.terms) return termIds(filter.terms, range, n);
      return (
        filter?.ranked && !inKeyOrder
          ? ranked(filter.ranked, range, true)
          : inKeyOrder
            ? ordered(filter, range, true, n)
            : within(filter, range)
      )
        .select(`${table}.id`)
        .limit(n)
        .execute();
    },
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

/**
 * A read a page needs besides its rows, as a function to await after them; it runs once however
 * often awaited. Where the database runs reads side by side (`concurrentReads`) it starts at
 * once, beside the page's own reads, so the request waits for the slower of the two, not for
 * both; elsewhere it runs when first awaited, after the page.
 */
export function besidePage<T>(read: () => Promise<T>, concurrentReads: boolean): () => Promise<T> {
  if (!concurrentReads) {
    let done: Promise<T> | undefined;
    return () => (done ??= read());
  }
  const early = read();
  // Awaited after the page; should the page fail first, this rejection is nobody's answer.
  early.catch(() => {});
  return () => early;
}

/**
 * The list's total for a page request, read beside the page (`besidePage`: a several-words
 * count on PostgreSQL is most of the time, ADR 0065) and counted once (the works list asks for
 * its total and then its facets, both from this one read). Where it starts at once, a page with a
 * cursor has it checked first (`checkCursor` throws for one the page would refuse, → 400), so a
 * refused cursor costs no count.
 */
export function totalFor<T = Total>(
  total: () => Promise<T>,
  request: { readonly after?: string | undefined; readonly before?: string | undefined },
  concurrentReads: boolean,
  checkCursor: (cursor: string) => void,
): () => Promise<T> {
  // The cursor the page reads (`after` wins, as in keysetPage).
  const cursor = request.after ?? request.before;
  if (concurrentReads && cursor !== undefined) checkCursor(cursor);
  return besidePage(total, concurrentReads);
}
