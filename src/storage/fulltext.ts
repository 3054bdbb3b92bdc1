// Full-text predicates for both engines. User input never reaches MATCH / to_tsquery as syntax:
// it is reduced to plain words (searchTokens) and each word becomes a quoted prefix term.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Capabilities } from './open.ts';
import { stems } from './stems.ts';
import { searchTokens, transliterate } from './text.ts';

/** A query word and its other spellings: "gö" → gö, goe, go (so both engines agree). */
export function spellings(token: string): string[] {
  const stripped = token.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss');
  return [...new Set([token, transliterate(token).toLowerCase(), stripped])].filter((t) => t !== '');
}

/**
 * What one query word matches: any of its spellings as a prefix, or any of their stems as a
 * whole term (the index holds every word's stems, `searchText`), so `goethes` (stem `goeth`)
 * finds Goethe and `verwandlungen` (`verwandl`) finds "Die Verwandlung" (ADR 0079).
 */
export interface WordTerms {
  readonly prefixes: readonly string[];
  readonly stems: readonly string[];
}

export function wordTerms(token: string): WordTerms {
  const prefixes = spellings(token);
  return { prefixes, stems: [...new Set(prefixes.flatMap((spelling) => stems(spelling)))] };
}

/** FTS5 query: every word as its spellings' prefix terms or its stems' exact terms, all words required. */
export function fts5Query(tokens: readonly string[]): string {
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  return tokens
    .map((token) => {
      const word = wordTerms(token);
      return `(${[...word.prefixes.map((t) => `${quote(t)}*`), ...word.stems.map(quote)].join(' OR ')})`;
    })
    .join(' AND ');
}

/** tsquery text: every word as its spellings' prefix terms or its stems' exact terms, all required. */
export function tsQuery(tokens: readonly string[]): string {
  // Tokens are letters/digits only; the quoting is a second line of defence.
  const quote = (t: string) => `'${t.replaceAll("'", "''").replaceAll('\\', '')}'`;
  return tokens
    .map((token) => {
      const word = wordTerms(token);
      return `(${[...word.prefixes.map((t) => `${quote(t)}:*`), ...word.stems.map(quote)].join(' | ')})`;
    })
    .join(' & ');
}

export interface FullTextTarget {
  /** Qualified id column of the searched table, e.g. `works.id`. */
  readonly idColumn: string;
  /** FTS5 virtual table whose rowid is that id (SQLite); `<ftsTable>_vocab` lists its terms. */
  readonly ftsTable: string;
  /** tsvector column (PostgreSQL), e.g. `works.search_vector`. */
  readonly vectorColumn: string;
  /**
   * SQLite: a contentless FTS5 table (detail=none) whose rowid is the row's `list_rank`, which
   * follows the list order (storage/list-rank.ts); absent where the table keeps no ranks.
   */
  readonly rankedFtsTable?: string;
  /** PostgreSQL: the table has a term index `<table>_terms` (migration 0014, ADR 0065). */
  readonly termIndex?: boolean;
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
 * The same match as a test of one row (the row whose id is `target.idColumn`), for a plan that
 * collects a small set of rows found otherwise (the works of one person) and keeps those that
 * match: FTS5 is asked about that rowid only, PostgreSQL reads the row's stored tsvector.
 */
export function fullTextRowTest(
  capabilities: Capabilities,
  target: FullTextTarget,
  query: string,
): Expression<SqlBool> | null {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return null;
  if (capabilities.fullText === 'fts5') {
    const fts = sql.table(target.ftsTable);
    return sql<SqlBool>`exists (select 1 from ${fts} where ${fts} match ${fts5Query(tokens)}
      and ${fts}.rowid = ${sql.ref(target.idColumn)})`;
  }
  return sql<SqlBool>`coalesce(${sql.ref(target.vectorColumn)} @@ to_tsquery('simple', ${tsQuery(tokens)}), false)`;
}

/**
 * After a bulk load on SQLite: merges each FTS5 index into one segment, so a row test reads one
 * b-tree instead of one per segment (≈ 17 → 5 µs). Later writes add segments again, which FTS5
 * merges gradually. PostgreSQL's GIN index needs nothing (the load ends with ANALYZE).
 */
export async function optimizeFullText<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  ftsTables: readonly string[],
): Promise<void> {
  if (capabilities.fullText !== 'fts5') return;
  for (const name of ftsTables) {
    const fts = sql.table(name);
    await sql`insert into ${fts}(${fts}) values ('optimize')`.execute(db);
  }
}
