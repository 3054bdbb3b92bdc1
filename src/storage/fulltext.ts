// Full-text predicates for both engines. User input never reaches MATCH / to_tsquery as syntax:
// it is reduced to plain words (searchTokens) and each word becomes a quoted prefix term.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Capabilities } from './open.ts';
import { searchTokens, transliterate } from './text.ts';

/** A query word and its other spellings: "gö" → gö, goe, go (so both engines agree). */
export function spellings(token: string): string[] {
  const stripped = token.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss');
  return [...new Set([token, transliterate(token).toLowerCase(), stripped])].filter((t) => t !== '');
}

/** FTS5 query: every word (in any spelling) as a quoted prefix term, all required. */
export function fts5Query(tokens: readonly string[]): string {
  const term = (t: string) => `"${t.replaceAll('"', '""')}"*`;
  return tokens.map((token) => `(${spellings(token).map(term).join(' OR ')})`).join(' AND ');
}

/** tsquery text: every word (in any spelling) as a prefix term, all required. */
export function tsQuery(tokens: readonly string[]): string {
  // Tokens are letters/digits only; the quoting is a second line of defence.
  const term = (t: string) => `'${t.replaceAll("'", "''").replaceAll('\\', '')}':*`;
  return tokens.map((token) => `(${spellings(token).map(term).join(' | ')})`).join(' & ');
}

export interface FullTextTarget {
  /** Qualified id column of the searched table, e.g. `works.id`. */
  readonly idColumn: string;
  /** FTS5 virtual table whose rowid is that id (SQLite). */
  readonly ftsTable: string;
  /** tsvector column (PostgreSQL), e.g. `works.search_vector`. */
  readonly vectorColumn: string;
}

/**
 * A WHERE predicate matching rows whose indexed text contains every word of `query` (as a
 * prefix), or null when the query holds no words at all (the caller decides: usually no rows).
 */
export function fullTextMatch(
  capabilities: Capabilities,
  target: FullTextTarget,
  query: string,
): Expression<SqlBool> | null {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return null;
  if (capabilities.fullText === 'fts5') {
    const fts = sql.table(target.ftsTable);
    return sql<SqlBool>`${sql.ref(target.idColumn)} in (select rowid from ${fts} where ${fts} match ${fts5Query(tokens)})`;
  }
  return sql<SqlBool>`${sql.ref(target.vectorColumn)} @@ to_tsquery('simple', ${tsQuery(tokens)})`;
}

/**
 * How a list search runs. `filter`: one predicate, the engine collects every match and sorts
 * them (PostgreSQL always; SQLite for rare words). `walk` (SQLite, common words): walk the list
 * in key order testing each row with `probe` (one FTS5 lookup per row, so cost follows the page,
 * not the match count); when a bounded walk finds too few, `sweep` continues (see search-page.ts).
 */
export type FullTextPlan =
  | { readonly kind: 'filter'; readonly filter: Expression<SqlBool> }
  | { readonly kind: 'walk'; readonly probe: Expression<SqlBool>; readonly sweep: Expression<SqlBool> };

/**
 * When at least this share of the table matches, a walk in list order (≈ 5–17 µs per probed
 * row, so ≈ 21 / share rows per page) beats collecting and sorting every match (≈ 0.5–1.7 µs
 * per match). Below it a page may need more than WALK_WINDOW probes, and the walk would give way
 * to the sweep anyway.
 */
export const COMMON_SHARE = 0.15;

/** Prefix index lengths of the FTS5 tables (`prefix='2 3'`, migration 0001-catalogue). */
export const FTS5_PREFIX_LENGTHS: readonly number[] = [2, 3];

/**
 * Chooses the plan for `query`, or null when it holds no words. SQLite walks when every term
 * has a prefix index and at least COMMON_SHARE of the table matches (one capped count);
 * PostgreSQL always filters (GIN index + sort; q=der runs at ≈ 1,260 req/s there).
 */
export async function planFullText<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  target: FullTextTarget,
  query: string,
): Promise<FullTextPlan | null> {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return null;
  if (capabilities.fullText !== 'fts5') {
    return { kind: 'filter', filter: fullTextMatch(capabilities, target, query)! };
  }
  const fts = sql.table(target.ftsTable);
  const match = fts5Query(tokens);
  const matches = sql<SqlBool>`(select rowid from ${fts} where ${fts} match ${match})`;
  const id = sql.ref(target.idColumn);
  const collect = { kind: 'filter', filter: sql<SqlBool>`${id} in ${matches}` } as const;
  // A probe is cheap only when FTS5 reads each prefix term from a prefix index; otherwise every
  // probe merges the doclists of all terms with that prefix (measured: ≈ 0.5 ms per row).
  if (!tokens.every((t) => spellings(t).every((s) => FTS5_PREFIX_LENGTHS.includes([...s].length))))
    return collect;
  // Counting stops at the threshold (the table's highest id stands in for its size), so the
  // test reads at most that many doclist entries.
  const table = sql.table(target.idColumn.split('.')[0]!);
  const threshold = sql<number>`(select cast(coalesce(max(${id}), 0) * ${COMMON_SHARE} as integer) + 1 from ${table})`;
  const { rows } = await sql<{ common: number }>`select count(*) >= ${threshold} as common
    from (select rowid from ${fts} where ${fts} match ${match} limit ${threshold})`.execute(db);
  if (!rows[0]?.common) return collect;
  return {
    kind: 'walk',
    // Correlated: SQLite walks the (sort_key, id) index and asks FTS5 about each row.
    probe: sql<SqlBool>`exists (select 1 from ${fts} where ${fts} match ${match} and ${fts}.rowid = ${id})`,
    // The unary + keeps SQLite from driving the query by rowid (the collect-and-sort plan): it
    // walks the (sort_key, id) index and tests each row against the match set (a Bloom filter).
    sweep: sql<SqlBool>`+${id} in ${matches}`,
  };
}
