// Stemming for search (docs/decisions/0079-stemming-and-suggestions.md): the German and the
// English Snowball stemmers, run in code so SQLite and PostgreSQL index and query the very same
// stems (PostgreSQL's own `german` dictionary would leave SQLite without one). A catalogue of a
// German library holds both languages' titles, and a patron rarely says which one a word is in.
import { newStemmer } from 'snowball-stemmers';

const GERMAN = newStemmer('german');
const STEMMERS = [GERMAN, newStemmer('english')] as const;

/**
 * Shortest stem used. Shorter stems are mostly function words (`ein`, `die`) that would match far
 * too much, and PostgreSQL's term index stores every 1–3-letter prefix as a key (ADR 0065), so a
 * stem of 3 letters could not be looked up as an exact term there.
 */
export const MIN_STEM_LENGTH = 4;

/**
 * The stems of one word (lower case), German and English, each once: only plain ASCII letters
 * (the index holds an ASCII spelling of every word, `searchText`, and FTS5 folds what it reads,
 * so an ASCII stem is the one form both engines compare alike), at least MIN_STEM_LENGTH long,
 * and never the word itself (that is already indexed and searched as it is).
 */
export function stems(word: string): readonly string[] {
  const lower = word.toLowerCase();
  let found = KEPT.get(lower);
  if (found === undefined) {
    found = Object.freeze(stemsOf(lower));
    if (KEPT.size >= KEPT_MAX) KEPT.clear();
    KEPT.set(lower, found);
  }
  return found;
}

/**
 * The stems of words seen lately. Snowball's stemmers are the dearest part of a search text
 * (an edit of a work, every line of an import): a catalogue's words repeat, and a word's stems
 * never change. Emptied when full, so it stays bounded whatever the input.
 */
const KEPT = new Map<string, readonly string[]>();
const KEPT_MAX = 20_000;

function stemsOf(lower: string): string[] {
  const found = new Set<string>();
  const add = (stem: string) => {
    if (stem !== lower && stem.length >= MIN_STEM_LENGTH && /^[a-z]+$/.test(stem)) found.add(stem);
  };
  for (const stemmer of STEMMERS) add(stemmer.stem(lower));
  // A word typed without umlauts (`gaerten`) stems as the German word it spells (`gärten`,
  // whose stem `gart` drops the umlaut), so it meets the stems of `Garten` and `Gärten`.
  const umlauts = lower.replace(/ae/g, 'ä').replace(/oe/g, 'ö').replace(/ue/g, 'ü');
  if (umlauts !== lower) add(GERMAN.stem(umlauts));
  return [...found];
}
