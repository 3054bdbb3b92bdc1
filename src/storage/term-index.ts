// PostgreSQL's search index in list order (docs/decisions/0065-postgres-term-index.md): a side
// table `<table>_terms (term, sort_key, id)` holding, for every live row, each lexeme of its
// tsvector and each lexeme's prefixes of 1–3 letters, its b-tree ordered by (term, sort_key, id).
// A query word is a group of index keys (a word of ≤ 3 letters is one key; a longer one the
// lexemes that start with it); a page is read in list order from the range's start: one group
// merges its keys' ranges, several groups leapfrog (each group seeks to the candidate, the
// furthest answer becomes the next candidate), so a page costs what it holds, not the table.
import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { Key } from './keyset.ts';
import { wordTerms } from './fulltext.ts';
import { firstRows, keptBy, nearest, sides, type Scan } from './term-parts.ts';
import { batches, windowedCount, windowedScan } from './term-batches.ts';
import { withGenericPlan } from './statement-name.ts';

/** Prefix lengths migration 0014 stores as keys (`search_term_keys`). */
export const TERM_PREFIX_LENGTH = 3;
/** A longer word becomes at most this many lexemes, else the older plans run (ADR 0045). */
export const MAX_KEYS_PER_WORD = 32;

/** The words of a query as index keys, all of a group's keys alternatives, all groups required. */
export interface TermQuery {
  readonly table: string;
  readonly groups: readonly (readonly string[])[];
  /**
   * Only rows this holds for, given the index entry's id (a list that shows some live rows,
   * e.g. public persons): tested on the first group's entries, where candidates come from,
   * so a page still stops after `limit` rows that are shown.
   */
  readonly keep?: (id: RawBuilder<unknown>) => RawBuilder<unknown>;
  /**
   * The shares of the index's rows its most common keys have (the planner's statistics), by
   * which the groups are ordered rarest first: kept for a group added later (`withGroup`).
   */
  readonly shares?: ReadonlyMap<string, number>;
}

/** A range of the term scan: rows beyond `from` (`inclusive`: or at it) in `direction` order. */
export interface TermRange {
  readonly direction: 'after' | 'before';
  readonly from?: Key | undefined;
  readonly inclusive: boolean;
}

const tables = new WeakMap<object, Map<string, boolean>>();

/** Whether `<table>_terms` exists (a database before migration 0014 has none); remembered once seen. */
export async function hasTermIndex(db: QueryExecutorProvider, table: string): Promise<boolean> {
  let known = tables.get(db);
  if (!known) tables.set(db, (known = new Map()));
  if (known.get(table)) return true;
  const { rows } = await sql<{
    found: boolean;
  }>`select to_regclass(${`${table}_terms`}) is not null as found`.execute(db);
  const found = rows[0]?.found === true;
  if (found) known.set(table, true);
  return found;
}

/**
 * The index keys of `tokens`: one group per word, the rarest first, and the shares they were
 * ordered by; undefined when some spelling is not one lexeme to PostgreSQL or a word stands for
 * more than MAX_KEYS_PER_WORD lexemes (the caller falls back); an empty group means nothing can
 * match. The lexemes come from PostgreSQL's own `to_tsvector`, so they are what
 * `to_tsquery('simple', …)` makes of the same word.
 */
export async function termGroups(
  db: QueryExecutorProvider,
  table: string,
  tokens: readonly string[],
): Promise<{ groups: string[][]; shares: ReadonlyMap<string, number> } | undefined> {
  const words = tokens.map((token) => wordTerms(token));
  const flat = words.flatMap((word) => word.prefixes);
  // One statement: each spelling's lexemes and, for a lexeme longer than the stored prefixes,
  // the distinct terms starting with it, from the prefix on, one index seek each (a loose index
  // scan; they are contiguous in the index). It comes before the page and the count can start,
  // so a second round trip would be waited for by every search of a longer word.
  const terms = sql.table(`${table}_terms`);
  const query = sql<{ lexemes: string[] | null; terms: string[] | null }>`select l.lexemes,
      case when cardinality(l.lexemes) = 1 and char_length(l.lexemes[1]) > ${TERM_PREFIX_LENGTH}
      then array(
        with recursive t(term) as (
          (select term from ${terms} where term >= l.lexemes[1] order by term limit 1)
          union all
          select (select term from ${terms} where term > t.term order by term limit 1) from t
          where starts_with(t.term, l.lexemes[1]))
        select term from t where starts_with(term, l.lexemes[1]) limit ${MAX_KEYS_PER_WORD + 1})
      end as terms
    from unnest(${flat}::text[]) with ordinality as t(s, i)
    cross join lateral (select array(select lexeme from unnest(to_tsvector('simple', t.s))) as lexemes) as l
    order by t.i`.compile(db);
  // Its text is the same for every search of a table: kept prepared (ADR 0068) with one generic
  // plan (ADR 0115), it is parsed and planned once per connection instead of before every
  // search's page and count.
  const { rows } = await db.getExecutor().executeQuery(withGenericPlan(query));
  const lexemes = rows.map((r) => r.lexemes ?? []);
  if (lexemes.length !== flat.length || lexemes.some((l) => l.length !== 1)) return undefined;
  const expanded = new Map<string, string[]>();
  for (const [i, row] of rows.entries()) if (row.terms) expanded.set(lexemes[i]![0]!, row.terms);
  const groups: string[][] = [];
  let offset = 0;
  for (const word of words) {
    // A stem is one lexeme of at least 4 ASCII letters (stems.ts), so it is its own key and
    // names exactly that lexeme (keys of 1–3 letters are also every longer lexeme's prefix).
    const keys = new Set<string>(word.stems);
    for (const [lexeme] of lexemes.slice(offset, offset + word.prefixes.length)) {
      for (const key of expanded.get(lexeme!) ?? [lexeme!]) keys.add(key);
    }
    offset += word.prefixes.length;
    if (keys.size > MAX_KEYS_PER_WORD) return undefined;
    groups.push([...keys]);
  }
  const shares = await commonTerms(db, table);
  return { groups: rarestFirst(groups, shares), shares };
}

/**
 * The groups, the one with the fewest entries first (it drives the scan of several words; ties
 * keep their order); by the planner's statistics of `<table>_terms.term` (most common values and
 * their shares; a key not among them counts as rare). Only the cost depends on the order, never
 * the rows.
 */
function rarestFirst<G extends readonly string[]>(
  groups: readonly G[],
  shares: ReadonlyMap<string, number>,
): G[] {
  const weight = (keys: readonly string[]) => keys.reduce((sum, key) => sum + (shares.get(key) ?? 0), 0);
  return groups
    .map((keys, i) => ({ keys, i, w: weight(keys) }))
    .sort((a, b) => a.w - b.w || a.i - b.i)
    .map((g) => g.keys);
}

/**
 * The query with one more required group of keys (a list's scope kept in the same index: a
 * work's decade, ADR 0113), in its place in the rarest-first order; after the words it weighs
 * as much as, so an equally rare word still drives.
 */
export function withGroup(query: TermQuery, keys: readonly string[]): TermQuery {
  return { ...query, groups: rarestFirst([...query.groups, keys], query.shares ?? NO_SHARES) };
}

/** No statistics: every key counts as rare. */
const NO_SHARES: ReadonlyMap<string, number> = new Map();

const common = new WeakMap<object, Map<string, { at: number; shares: Promise<Map<string, number>> }>>();
/** Statistics change with ANALYZE only; reading them costs more than a page (the pg_stats view). */
const COMMON_TERMS_MS = 60_000;

/** The most common keys of `<table>_terms` and their shares of its rows, read at most once a minute. */
function commonTerms(db: QueryExecutorProvider, table: string): Promise<Map<string, number>> {
  let known = common.get(db);
  if (!known) common.set(db, (known = new Map()));
  const cached = known.get(table);
  if (cached && Date.now() - cached.at < COMMON_TERMS_MS) return cached.shares;
  const shares = sql<{ term: string; share: number }>`select s.term, s.share
    from pg_stats, unnest(most_common_vals::text::text[], most_common_freqs) as s(term, share)
    where schemaname = current_schema() and tablename = ${`${table}_terms`} and attname = 'term'`
    .execute(db)
    .then(({ rows }) => new Map(rows.map((r) => [r.term, Number(r.share)])));
  known.set(table, { at: Date.now(), shares });
  shares.catch(() => known.delete(table));
  return shares;
}

/**
 * `(sort_key, id)` of the first `limit` live rows matching `query` in `range`, in direction
 * order (a subquery to join the listed table to). Reads index entries near the page only.
 */
export function termScan(query: TermQuery, range: TermRange, limit: number): RawBuilder<unknown> {
  const terms = sql.table(`${query.table}_terms`);
  const s = sides(range.direction);
  const kept = keptBy(query, terms);
  const start = range.from
    ? sql`(sort_key, id) ${range.inclusive ? s.ge : s.gt} (${sql.join(range.from)})`
    : sql`true`;
  const [first, ...others] = query.groups;
  if (first === undefined || first.length === 0 || others.some((g) => g.length === 0))
    return sql`(select null::text as sort_key, null::integer as id where false)`;
  // One word: its keys' ranges merged (each row once).
  if (others.length === 0) return firstRows(terms, first, kept(start), limit, s);
  // Several words: a page and a probe step candidate by candidate (leapfrog); more rows (the
  // sample of 501 matches) in batches, where a step per match would cost more than the batches'
  // probes — forwards in the count's windowed batches (ADR 0112).
  if (limit <= LEAPFROG_LIMIT) return leapfrog(terms, first, others, start, limit, s, kept);
  if (range.direction === 'before') return batches(terms, first, others, start, limit, s, kept);
  return windowedScan(terms, first, others, inclusiveBound(range), limit, kept);
}

/**
 * The range's start forwards as an inclusive bound: after (sort_key, id) is from (sort_key,
 * id + 1), ids being integers; none from the start.
 */
function inclusiveBound(range: TermRange): [string, number] | undefined {
  if (!range.from) return undefined;
  const [sortKey, id] = range.from as readonly [string, number];
  return [sortKey, range.inclusive ? id : id + 1];
}

/** Up to this many matches are found by leapfrog, more in batches (measured: ADR 0065). */
export const LEAPFROG_LIMIT = 64;

const leapfrog: Scan = (terms, first, others, start, limit, s, kept) => {
  // Leapfrog: a candidate from the first group; every other group seeks to it. All at the
  // candidate: a match, the next candidate is the first group's next row. Otherwise the next
  // candidate is the first group's first row at or beyond the furthest answer. Each step
  // emits the previous candidate when it matched; the recursion stops after `limit` matches.
  const candidate = sql`(lf.sk, lf.id)`;
  const answers = others.map((keys, i) => {
    const alias = sql.raw(`y${i}`);
    return sql`left join lateral ${nearest(terms, keys, candidate, s)} as ${alias} on true`;
  });
  const values = sql.join(others.map((_, i) => sql.raw(`(y${i}.sort_key, y${i}.id)`)));
  const next = sql`(m.sk, m.id + ${sql.raw(String(s.step))} * m.hit::int)`;
  return sql`(with recursive lf(sk, id, hit_sk, hit_id, hits) as (
      (select sort_key, id, null::text collate "C", null::integer, 0 from ${firstRows(terms, first, kept(start), 1, s)} as c)
      union all
      select nx.sort_key, nx.id, case when m.hit then lf.sk end, case when m.hit then lf.id end,
        lf.hits + m.hit::int
      from lf ${sql.join(answers, sql` `)}
      cross join lateral (select v.sk, v.id, v.sk = lf.sk and v.id = lf.id as hit
        from (values ${values}) as v(sk, id) order by v.sk ${s.furthest}, v.id ${s.furthestId} limit 1) as m
      left join lateral ${nearest(terms, first, next, s, kept)} as nx on m.sk is not null
      where lf.sk is not null and lf.hits < ${limit})
    select hit_sk as sort_key, hit_id as id from lf where hit_id is not null)`;
};

/**
 * How many rows match every group, counting stopped once `limit` are found: the count of a
 * several-words search (`gesamt`, capped). Any `limit` matches will do, so the batches carry a
 * number, not their matches' keys, and test each batch against the other words' entries in its
 * stretch of the list (term-batches.ts, ADR 0065). The term table holds live rows only, so no
 * join is needed (a scoped list's `keep` is tested on the first group's entries, as in the scan).
 * One word: its first `limit` entries counted.
 */
export function termCount(query: TermQuery, limit: number): RawBuilder<number> {
  const terms = sql.table(`${query.table}_terms`);
  const s = sides('after');
  const kept = keptBy(query, terms);
  const [first, ...others] = query.groups;
  if (first === undefined || first.length === 0 || others.some((g) => g.length === 0)) return sql<number>`0`;
  if (others.length === 0)
    return sql<number>`(select count(*)::integer from ${firstRows(terms, first, kept(sql`true`), limit, s)} as c)`;
  return sql<number>`(${windowedCount(terms, first, others, limit, kept)})`;
}
