// Every public person and work with its last change, for the sitemap (ADR 0053; a person is
// public while they have a live work, ADR 0062 — patrons never appear here): counted, then
// read in id order a batch at a time (keyset on the primary key), so a part of 50,000 URLs never
// holds more than one batch of rows in memory.
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB } from '../tables.ts';
import { pathBuilder, RECORD_KINDS, tablesWith, type SitemapTable } from '../registry/index.ts';

export interface SitemapEntry {
  /** Path under the base: `/personen/goethe`. */
  readonly path: string;
  /** When what the URL shows last changed (ISO 8601). */
  readonly lastmod: string;
}

export interface SitemapSource {
  /** How many entries there are: live public persons, then live works. */
  count(): Promise<number>;
  /** The entries at positions `from` … `from + n - 1` (persons by id, then works by id), in batches. */
  entries(from: number, n: number): AsyncIterable<SitemapEntry[]>;
}

const BATCH = 1000;

type Table = SitemapTable;
/** The kinds in the sitemap (registry/kinds.ts), in its order, and the link of one record. */
const TABLES = tablesWith('sitemap');
const PATH_OF = Object.fromEntries(
  TABLES.map((table) => [table, pathBuilder(RECORD_KINDS[table].url)]),
) as Record<Table, (slug: string) => string>;

/** The table's rows that have a public URL: live, and for persons public (ADR 0062). */
function listed(db: Kysely<DB>, table: Table) {
  const live = (db.selectFrom(table) as SelectQueryBuilder<DB, 'persons', object>).where(
    'deleted_at',
    'is',
    null,
  );
  return table === 'persons' ? live.where(sql<SqlBool>`persons.public = 1`) : live;
}

async function liveCount(db: Kysely<DB>, table: Table): Promise<number> {
  const row = await listed(db, table)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Rows `skip` … `skip + n - 1` of one table in id order, a batch per query after the first. */
async function* rowsOf(
  db: Kysely<DB>,
  table: Table,
  skip: number,
  n: number,
): AsyncGenerator<SitemapEntry[]> {
  let after = 0;
  if (skip > 0) {
    // The row before the first one wanted: one index walk, then keyset from there.
    const row = await listed(db, table)
      .select('id')
      .orderBy('id')
      .limit(1)
      .offset(skip - 1)
      .executeTakeFirst();
    if (!row) return;
    after = row.id;
  }
  let left = n;
  while (left > 0) {
    const rows = await listed(db, table)
      .where('id', '>', after)
      .select(['id', 'slug', 'updated_at'])
      .orderBy('id')
      .limit(Math.min(BATCH, left))
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({ path: PATH_OF[table](r.slug), lastmod: new Date(r.updated_at).toISOString() }));
    left -= rows.length;
    after = rows[rows.length - 1]!.id;
  }
}

export function sqlSitemapSource(db: Kysely<DB>): SitemapSource {
  return {
    async count() {
      let total = 0;
      for (const table of TABLES) total += await liveCount(db, table);
      return total;
    },
    async *entries(from, n) {
      // Each kind's rows in turn; the last kind needs no count (it takes whatever is left).
      let skip = from;
      let left = n;
      for (const [i, table] of TABLES.entries()) {
        if (left <= 0) return;
        const count = i === TABLES.length - 1 ? Infinity : await liveCount(db, table);
        const take = Math.max(0, Math.min(left, count - skip));
        if (take > 0) yield* rowsOf(db, table, skip, take);
        skip = Math.max(0, skip - count);
        left -= take;
      }
    },
  };
}
