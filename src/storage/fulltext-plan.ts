// How a list search runs, chosen per query (docs/decisions/0045-search-plans.md). Every plan
// returns the same rows in the same order; they differ in what the engine reads to find a page.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { fts5Query, fullTextMatch, tsQuery, wordTerms, type FullTextTarget } from './fulltext.ts';
import type { Capabilities } from './open.ts';
import { fullyRanked } from './list-rank.ts';
import { searchTokens } from './text.ts';
import { hasTermIndex, termGroups, type TermQuery } from './term-index.ts';

/** A WHERE predicate, and whether its matches must be collected before they are ordered. */
export interface RowFilter {
  readonly where: Expression<SqlBool>;
  /**
   * Collect every match in a fenced subquery, then sort: PostgreSQL otherwise walks the whole
   * sort index for a rare word, because it guesses 20,000 matches where there are 2.
   */
  readonly collect: boolean;
  /**
   * Read the matches from this ranked FTS5 table instead (its rowid follows the list order), in
   * rowid order from the rank of the range's first row: `where` is then unused. SQLite only.
   */
  readonly ranked?: { readonly ftsTable: string; readonly match: string };
  /**
   * Read the matches from the term index `<table>_terms` instead (PostgreSQL, ADR 0065), in
   * list order from the range's start: `where` is then unused.
   */
  readonly terms?: TermQuery;
}

/**
 * `filter`: the engine collects every match and sorts them. `walk`: walk the list in key order
 * testing each row with `probe` (cost follows the page, not the match count); where a bounded
 * walk finds too few rows, `sweep` continues (search-page.ts). `minShare`: the smallest share of
 * the table the plan expects to match; it sizes the walk.
 */
export type FullTextPlan =
  | { readonly kind: 'filter'; readonly filter: RowFilter }
  | {
      readonly kind: 'walk';
      readonly probe: RowFilter;
      /** Decided when first needed (PostgreSQL counts first); at most once per plan. */
      readonly sweep: () => Promise<RowFilter>;
      readonly minShare: number;
    };

/** Prefix index lengths of the FTS5 tables (`prefix='1 2 3 4 5 6 7 8'`, migration 0002-search-indexes). */
export const FTS5_PREFIX_LENGTHS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** Longer words become their exact index terms, when there are at most this many. */
export const MAX_TERMS_PER_WORD = 32;

/**
 * A walk probes ≈ 21 / share rows at ≈ 5–17 µs each; collecting and sorting costs ≈ 1 µs per
 * match. They break even near √(210·N) matches: 15,000 at 1,000,000 works, 4,700 at 100,000.
 * Small tables keep the earlier 15 % (below it a small list has too few rows to walk past).
 */
export const COMMON_SHARE = 0.15;
export const COMMON_MATCHES_PER_ROOT = 15;

/** PostgreSQL always walks first: sized for words in at least 4 % of the rows (see the ADR). */
export const POSTGRES_MIN_SHARE = 0.04;
/** Beyond the walk, PostgreSQL collects through GIN only below this many matches. */
export const POSTGRES_FEW_MATCHES = 2000;

/** How many matches make a query "common" (walk) in a table of `size` rows. */
export function commonThreshold(size: number): number {
  return Math.floor(Math.min(COMMON_SHARE * size, COMMON_MATCHES_PER_ROOT * Math.sqrt(size))) + 1;
}

/** The FTS5 fold of a word (lower case, accents removed), when it is plain ASCII; else undefined. */
export function asciiFold(word: string): string | undefined {
  const folded = word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  return /^[a-z0-9]+$/.test(folded) ? folded : undefined;
}

const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * The FTS5 query with every term cheap to test on one row: words of 1–8 letters stay prefix
 * terms (read from a prefix index), longer ones become the exact terms of the index that start
 * with them (FTS5 would otherwise merge all their doclists on every probe). The same documents
 * match. Undefined when a word cannot be expanded safely (non-ASCII fold, too many terms).
 */
async function probeQuery<DB>(
  db: Kysely<DB>,
  target: FullTextTarget,
  tokens: readonly string[],
): Promise<{ text: string; singleTokens: boolean } | undefined> {
  const vocab = sql.table(`${target.ftsTable}_vocab`);
  const groups: string[] = [];
  // unicode61 keeps a run of letters and digits as one token; anything else may split a term
  // into a phrase, which the ranked table (detail=none) cannot answer.
  let singleTokens = true;
  for (const token of tokens) {
    const word = wordTerms(token);
    // Stems are whole ASCII terms (stems.ts): one b-tree seek per row, like an exact term.
    const terms = new Set<string>(word.stems.map(quoted));
    for (const spelling of word.prefixes) {
      const folded = asciiFold(spelling);
      if (FTS5_PREFIX_LENGTHS.includes([...spelling].length)) {
        // Folded where that is exact, so `müller` and `muller` become one term, as in FTS5.
        terms.add(quoted(folded ?? spelling) + '*');
        if (!/^[\p{L}\p{N}]+$/u.test(folded ?? spelling)) singleTokens = false;
        continue;
      }
      if (folded === undefined) return undefined;
      const { rows } = await sql<{ term: string }>`select term from ${vocab}
        where term >= ${folded} and term < ${folded + '\u{10FFFF}'} limit ${MAX_TERMS_PER_WORD + 1}`.execute(
        db,
      );
      if (rows.length > MAX_TERMS_PER_WORD) return undefined;
      for (const { term } of rows) if (term.startsWith(folded)) terms.add(quoted(term));
    }
    if (terms.size === 0) return undefined; // no document has this word: any plan is instant
    groups.push(`(${[...terms].join(' OR ')})`);
  }
  return { text: groups.join(' AND '), singleTokens };
}

async function planSqlite<DB>(
  db: Kysely<DB>,
  target: FullTextTarget,
  tokens: readonly string[],
): Promise<FullTextPlan> {
  const fts = sql.table(target.ftsTable);
  const id = sql.ref(target.idColumn);
  const probe = await probeQuery(db, target, tokens);
  const probeText = probe?.text;
  // Matches in list order straight from the index: a page reads its own rows and no others.
  if (probe?.singleTokens && target.rankedFtsTable !== undefined) {
    const table = target.idColumn.split('.')[0]!;
    if (await fullyRanked(db, table)) {
      const ranked = { ftsTable: target.rankedFtsTable, match: probe.text };
      return { kind: 'filter', filter: { where: sql<SqlBool>`true`, collect: false, ranked } };
    }
  }
  const match = probeText ?? fts5Query(tokens);
  const matches = sql<SqlBool>`(select rowid from ${fts} where ${fts} match ${match})`;
  const collect: FullTextPlan = {
    kind: 'filter',
    filter: { where: sql<SqlBool>`${id} in ${matches}`, collect: false },
  };
  if (probeText === undefined) return collect;
  // Counting stops at the threshold (the table's highest id stands in for its size), so the
  // test reads at most that many doclist entries.
  const table = sql.table(target.idColumn.split('.')[0]!);
  const { rows: sized } = await sql<{ n: number }>`select coalesce(max(${id}), 0) as n from ${table}`.execute(
    db,
  );
  const threshold = commonThreshold(Number(sized[0]?.n ?? 0));
  const { rows } = await sql<{ n: number }>`select count(*) as n
    from (select rowid from ${fts} where ${fts} match ${match} limit ${threshold})`.execute(db);
  if (Number(rows[0]?.n ?? 0) < threshold) return collect;
  return {
    kind: 'walk',
    // Correlated: SQLite walks the (sort_key, id) index and asks FTS5 about each row.
    probe: {
      where: sql<SqlBool>`exists (select 1 from ${fts} where ${fts} match ${match} and ${fts}.rowid = ${id})`,
      collect: false,
    },
    // The unary + keeps SQLite from driving the query by rowid (the collect-and-sort plan): it
    // walks the (sort_key, id) index and tests each row against the match set (a Bloom filter).
    sweep: () => Promise.resolve({ where: sql<SqlBool>`+${id} in ${matches}`, collect: false }),
    minShare: threshold / Math.max(1, Number(sized[0]?.n ?? 1)),
  };
}

/**
 * Chooses the plan for `query`, or null when it holds no words. SQLite: walk when every term is
 * cheap to probe and the match count reaches commonThreshold, else collect. PostgreSQL: walk the
 * sort index testing each row (the GIN index cannot deliver rows in list order, and counting
 * through it costs as much as collecting), then collect what lies beyond the walk.
 */
export async function planFullText<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  target: FullTextTarget,
  query: string,
): Promise<FullTextPlan | null> {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return null;
  if (capabilities.fullText === 'fts5') return planSqlite(db, target, tokens);
  // Matches in list order from the term index (ADR 0065); the walk below where it cannot answer.
  const table = target.idColumn.split('.')[0]!;
  if (target.termIndex && (await hasTermIndex(db, table))) {
    const keys = await termGroups(db, table, tokens);
    if (keys !== undefined) {
      const terms: TermQuery = { table, ...keys };
      return { kind: 'filter', filter: { where: sql<SqlBool>`true`, collect: false, terms } };
    }
  }
  const vector = sql.ref(target.vectorColumn);
  const tsquery = sql`to_tsquery('simple', ${tsQuery(tokens)})`;
  const probe: RowFilter = { where: sql<SqlBool>`coalesce(${vector} @@ ${tsquery}, false)`, collect: false };
  let sweep: Promise<RowFilter> | undefined;
  return {
    kind: 'walk',
    // coalesce(): the same test, but not one the GIN index can serve, so the planner walks
    // the (sort_key, id) index and checks each row's stored tsvector.
    probe,
    // Past the walk: few matches are collected through GIN and sorted (a rare word: the planner
    // would walk the whole index). With many, the planner's own choice stands: walking on or
    // collecting depends on where the matches lie, which only its statistics hint at. The capped
    // count builds GIN's bitmap, whose cost follows the matches, not the table.
    sweep: () =>
      (sweep ??= (async () => {
        const table = sql.table(target.idColumn.split('.')[0]!);
        const { rows } = await sql<{ n: string | number }>`select count(*) as n from
          (select 1 from ${table} where ${vector} @@ ${tsquery} limit ${POSTGRES_FEW_MATCHES}) few`.execute(
          db,
        );
        const where = fullTextMatch(capabilities, target, query)!;
        return { where, collect: Number(rows[0]?.n ?? 0) < POSTGRES_FEW_MATCHES };
      })()),
    minShare: POSTGRES_MIN_SHARE,
  };
}
