// "Meinten Sie …?" (docs/decisions/0079-stemming-and-suggestions.md): for a search with few
// hits, each word is replaced by the catalogue's most frequent index term one edit away
// (a letter deleted, inserted, replaced, or two neighbours swapped), when that term is found
// more often than the word itself. The candidates are generated in code and looked up as exact
// terms (FTS5's vocabulary on SQLite, the term index on PostgreSQL), so the cost follows the
// word's length (≈ 40 × length lookups of one b-tree key), never the size of the vocabulary.
import { sql, type Kysely } from 'kysely';
import type { FullTextTarget } from './fulltext.ts';
import type { Capabilities } from './open.ts';
import { searchTokens, transliterate } from './text.ts';

/**
 * Words and candidates are plain ASCII of at least this many letters: both engines hold the
 * same such terms (FTS5 folds accents, and every accented word also has its ASCII spellings in
 * the text), and PostgreSQL's term index keys of 1–3 letters are prefixes, not words.
 */
export const SUGGEST_MIN_LENGTH = 4;
/** Counting a term's live rows stops here: enough to rank candidates, cheap for common words. */
export const SUGGEST_COUNT_CAP = 1000;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Every ASCII word one edit from `word` (deletion, transposition, substitution, insertion). */
export function oneEditAway(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1]! + tail[0]! + tail.slice(2));
    for (const c of ALPHABET) {
      if (tail && c !== tail[0]) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  out.delete(word);
  return [...out];
}

/** The searchable table's name (`works` of `works.id`). */
const tableOf = (target: FullTextTarget) => target.idColumn.split('.')[0]!;

/** Which of `terms` are index terms of at least one row (SQLite: of the FTS5 vocabulary). */
async function existing<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  target: FullTextTarget,
  terms: readonly string[],
): Promise<string[]> {
  if (terms.length === 0) return [];
  if (capabilities.fullText === 'fts5') {
    const vocab = sql.table(`${target.ftsTable}_vocab`);
    const { rows } = await sql<{ term: string }>`select term from ${vocab}
      where term in (select value from json_each(${JSON.stringify(terms)}))`.execute(db);
    return rows.map((r) => r.term);
  }
  const index = sql.table(`${tableOf(target)}_terms`);
  const { rows } = await sql<{ term: string }>`select t as term from unnest(${terms}::text[]) as t
    where exists (select 1 from ${index} where term = t)`.execute(db);
  return rows.map((r) => r.term);
}

/** Live rows holding `term` as a whole word (or stem), counted up to SUGGEST_COUNT_CAP. */
async function liveCount<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  target: FullTextTarget,
  term: string,
): Promise<number> {
  const table = sql.table(tableOf(target));
  if (capabilities.fullText === 'fts5') {
    const fts = sql.table(target.ftsTable);
    const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from ${fts}
      join ${table} on ${sql.ref(target.idColumn)} = ${fts}.rowid
      where ${fts} match ${`"${term}"`} and deleted_at is null limit ${SUGGEST_COUNT_CAP})`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  // The term index holds live rows only (ADR 0065).
  const index = sql.table(`${tableOf(target)}_terms`);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n
    from (select 1 from ${index} where term = ${term} limit ${SUGGEST_COUNT_CAP}) as t`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The best replacement of one word, or the word itself (folded to ASCII lower case). */
async function suggestWord<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  target: FullTextTarget,
  token: string,
): Promise<string> {
  const word = transliterate(token).toLowerCase();
  if (word.length < SUGGEST_MIN_LENGTH || !/^[a-z0-9]+$/.test(word)) return token;
  const candidates = oneEditAway(word).filter((c) => c.length >= SUGGEST_MIN_LENGTH);
  let best = { term: token, count: await liveCount(db, capabilities, target, word) };
  for (const term of (await existing(db, capabilities, target, candidates)).sort()) {
    const count = await liveCount(db, capabilities, target, term);
    if (count > best.count) best = { term, count };
  }
  return best.term;
}

/**
 * The query with its words corrected, or undefined when no word has a better-known neighbour.
 * Words of fewer than SUGGEST_MIN_LENGTH letters, or not in Latin letters, are kept.
 */
export async function suggestQuery<DB>(
  db: Kysely<DB>,
  capabilities: Capabilities,
  target: FullTextTarget,
  query: string,
): Promise<string | undefined> {
  const tokens = searchTokens(query);
  const words: string[] = [];
  for (const token of tokens) words.push(await suggestWord(db, capabilities, target, token));
  return words.some((w, i) => w !== tokens[i]) ? words.join(' ') : undefined;
}
