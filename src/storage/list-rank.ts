// List ranks (SQLite): a sparse integer per row that follows the list order (sort_key, id), so an
// FTS5 table whose rowid is that rank yields a search's matches in list order and a page stops
// after its rows (docs/decisions/0052-ranked-search-index.md). Triggers (migration
// 0007-list-ranks) keep the ranked FTS5 table in step with the rank and the text, and take the
// rank away from a row whose sort key changes; placeUnranked gives such rows (and new rows) a
// rank between their neighbours, respacing a small window when the gap between them is used up.
import { sql, type QueryExecutorProvider } from 'kysely';
import type { Capabilities } from './open.ts';

/** Spacing of freshly numbered ranks: 24 halvings before a gap runs out. */
export const RANK_GAP = 2 ** 24;
/** Ranks stay exact JavaScript numbers. */
export const MAX_RANK = Number.MAX_SAFE_INTEGER;
/** Beyond this many unranked rows (or a twentieth of the table) the whole table is renumbered. */
export const RENUMBER_ALL_FROM = 5000;

export interface RankedTable {
  /** The listed table, e.g. `works`; it has `id`, `sort_key`, `list_rank`. */
  readonly table: string;
}

type Row = { id: number; sort_key: string; list_rank: number | null };

/** Ranked neighbours of (sortKey, id): `side` 'before' in descending order, up to `n`. */
async function neighbours(
  db: QueryExecutorProvider,
  table: string,
  key: readonly [string, number],
  side: 'before' | 'after',
  n: number,
): Promise<Row[]> {
  const t = sql.table(table);
  const op = sql.raw(side === 'before' ? '<' : '>');
  const order = sql.raw(side === 'before' ? 'desc' : 'asc');
  const { rows } = await sql<Row>`select id, sort_key, list_rank from ${t}
    where list_rank is not null and (sort_key, id) ${op} (${key[0]}, ${key[1]})
    order by sort_key ${order}, id ${order} limit ${n}`.execute(db);
  return rows;
}

/** Sets ranks in two steps (all to null, then the new values): no rank is ever held twice. */
async function assign(
  db: QueryExecutorProvider,
  table: string,
  ranks: ReadonlyMap<number, number>,
): Promise<void> {
  const t = sql.table(table);
  const ids = [...ranks.keys()];
  await sql`update ${t} set list_rank = null where list_rank is not null and id in (${sql.join(ids)})`.execute(
    db,
  );
  for (const [id, rank] of ranks) await sql`update ${t} set list_rank = ${rank} where id = ${id}`.execute(db);
}

/** Renumbers every row: RANK_GAP apart (closer when the table is too large for that). */
export async function renumberAll(db: QueryExecutorProvider, table: string): Promise<void> {
  const t = sql.table(table);
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${t}`.execute(db);
  const gap = Math.max(1, Math.min(RANK_GAP, Math.floor(MAX_RANK / (Number(rows[0]?.n ?? 0) + 1))));
  await sql`update ${t} set list_rank = null where list_rank is not null`.execute(db);
  await sql`update ${t} set list_rank = ranked.n * ${gap}
    from (select id, row_number() over (order by sort_key, id) as n from ${t}) as ranked
    where ${t}.id = ranked.id`.execute(db);
}

/** Gives one unranked row a rank between its ranked neighbours, respacing around it if needed. */
async function place(db: QueryExecutorProvider, table: string, row: Row): Promise<void> {
  const key = [row.sort_key, row.id] as const;
  for (let k = 1; ; k *= 8) {
    const before = await neighbours(db, table, key, 'before', k + 1);
    const after = await neighbours(db, table, key, 'after', k + 1);
    const window = [...before.slice(0, k).reverse(), row, ...after.slice(0, k)];
    const lo = before.length > k ? before[k]!.list_rank! : 0;
    const last = after.length > k ? after[k]!.list_rank! : undefined;
    // Past the end of the list the space is free: room for the window at the usual spacing.
    const hi =
      last ?? Math.min(MAX_RANK, Math.max(lo, ...window.map((r) => r.list_rank ?? 0)) + 2 * RANK_GAP);
    const step = Math.floor((hi - lo) / (window.length + 1));
    if (k === 1 && window.length <= 3) {
      // The common case: a free rank between the two neighbours (half way, or one gap on).
      const prev = before[0]?.list_rank ?? 0;
      const next = after[0]?.list_rank ?? undefined;
      const rank = next === undefined ? prev + RANK_GAP : prev + Math.floor((next - prev) / 2);
      if (rank > prev && (next === undefined || rank < next) && rank <= MAX_RANK) {
        await sql`update ${sql.table(table)} set list_rank = ${rank} where id = ${row.id}`.execute(db);
        return;
      }
      continue;
    }
    // A larger window is respaced with a smaller gap: amortised, few rows move per insert.
    if (step >= Math.max(2, Math.floor(RANK_GAP / window.length))) {
      await assign(db, table, new Map(window.map((r, i) => [r.id, lo + step * (i + 1)])));
      return;
    }
    if (before.length <= k && after.length <= k) return renumberAll(db, table);
  }
}

/**
 * Ranks every row of `table` that has none (new rows, changed sort keys), keeping ranks in list
 * order. Call inside the writing transaction. PostgreSQL keeps no ranks: nothing to do.
 */
export async function placeUnranked(
  db: QueryExecutorProvider,
  capabilities: Capabilities,
  table: string,
): Promise<void> {
  if (capabilities.fullText !== 'fts5') return;
  // A database before migration 0007-list-ranks (tests of older migrations write to one) has
  // no ranks to keep; the migration numbers every row when it runs.
  const { rows: column } = await sql<{ found: number }>`select 1 as found from pragma_table_info(${table})
    where name = 'list_rank'`.execute(db);
  if (column.length === 0) return;
  const t = sql.table(table);
  const { rows } = await sql<Row>`select id, sort_key, list_rank from ${t} where list_rank is null
    order by id limit ${RENUMBER_ALL_FROM + 1}`.execute(db);
  if (rows.length === 0) return;
  if (rows.length > RENUMBER_ALL_FROM) return renumberAll(db, table);
  if (rows.length > 1) {
    const { rows: size } = await sql<{ n: number }>`select count(*) as n from ${t}`.execute(db);
    if (rows.length * 20 > Number(size[0]?.n ?? 0)) return renumberAll(db, table);
  }
  for (const row of rows) await place(db, table, row);
}

/** Whether every row has a rank (the ranked index then holds every row's text). */
export async function fullyRanked(db: QueryExecutorProvider, table: string): Promise<boolean> {
  const { rows } = await sql<{ unranked: number }>`select exists (select 1 from ${sql.table(table)}
    where list_rank is null) as unranked`.execute(db);
  return Number(rows[0]?.unranked ?? 1) === 0;
}
