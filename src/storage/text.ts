// Text folding shared by slugs, sort keys and the full-text index. German first: umlauts are
// transliterated (ä → ae, ß → ss) as German readers expect, other accents are dropped.

import { stems } from './stems.ts';

const TRANSLITERATION: Readonly<Record<string, string>> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'Ae',
  œ: 'oe',
  Œ: 'Oe',
  ø: 'o',
  Ø: 'O',
  å: 'aa',
  Å: 'Aa',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  þ: 'th',
  Þ: 'Th',
};

// Cyrillic (Russian authors) by the common Duden-less "library" romanisation.
const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'w',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'jo',
  ж: 'sch',
  з: 's',
  и: 'i',
  й: 'j',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'ch',
  ц: 'z',
  ч: 'tsch',
  ш: 'sch',
  щ: 'schtsch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'ju',
  я: 'ja',
};

/** Latin transliteration: umlauts to two letters, other diacritics removed. */
export function transliterate(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[äöüÄÖÜßẞæÆœŒøØåÅłŁđĐþÞ]/g, (c) => TRANSLITERATION[c] ?? c)
    .replace(/[\u0400-\u04ff]/g, (c) => {
      const lower = c.toLowerCase();
      const latin = CYRILLIC[lower] ?? '';
      return c === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
    })
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
}

/** URL slug: lower-case ASCII letters, digits and single hyphens; never empty (falls back). */
export function slugify(text: string, fallback = 'eintrag', maxLength = 80): string {
  const slug = transliterate(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
  return slug === '' ? fallback : slug;
}

/** `base`, `base-2`, `base-3`, …: the n-th candidate for a unique slug (n starts at 1). */
export function slugCandidate(base: string, n: number): string {
  return n <= 1 ? base : `${base}-${n}`;
}

/** Case- and accent-insensitive sort key; compared bytewise in both engines. */
export function sortKey(...parts: string[]): string {
  // \u0001 separates the parts so that "Mann, Thomas" sorts before "Mannheim, Anna".
  return parts.map((part) => transliterate(part).toLowerCase().replace(/\s+/g, ' ').trim()).join('\u0001');
}

/** Lower-case name particles a library files under the main name: "von Goethe" under G. */
const PARTICLES = new Set([
  'von',
  'van',
  'de',
  'der',
  'den',
  'du',
  'da',
  'di',
  'la',
  'le',
  'zu',
  'zum',
  'zur',
  'vom',
  'ten',
  'ter',
]);

/** The surname as it is filed: leading lower-case particles moved to the end ("goethe von"). */
export function filingName(nachname: string): string {
  const { particles, name } = splitParticles(nachname);
  return [...name, ...particles].join(' ');
}

/** The surname without its leading lower-case particles ("von Goethe" → "Goethe"). */
export function surnameProper(nachname: string): string {
  return splitParticles(nachname).name.join(' ');
}

function splitParticles(nachname: string): { particles: string[]; name: string[] } {
  const words = nachname.trim().split(/\s+/);
  let i = 0;
  while (i < words.length - 1 && PARTICLES.has(words[i] ?? '')) i += 1;
  return { particles: words.slice(0, i), name: words.slice(i) };
}

/**
 * Text for the full-text index: the original words plus spelling variants of words with
 * umlauts or accents ("Müller" also as "Mueller" and "Muller"), so every spelling finds it, and
 * the German and English stems of every word in any spelling ("Gärten" also as "gart"), which
 * a query word's own stems match as whole terms (fulltext.ts `wordTerms`, ADR 0079).
 */
export function searchText(...parts: (string | null | undefined)[]): string {
  const text = parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join(' ')
    .normalize('NFC');
  const variants = new Set<string>();
  const stemmed = new Set<string>();
  for (const word of text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
    const forms = [word];
    if (!/^[\x20-\x7e]*$/.test(word)) {
      forms.push(transliterate(word), word.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss'));
      for (const form of forms.slice(1)) variants.add(form);
    }
    for (const form of forms) for (const stem of stems(form)) stemmed.add(stem);
    for (const form of forms) stemmed.delete(form.toLowerCase());
  }
  variants.delete('');
  const extra = [...variants, ...stemmed];
  return extra.length === 0 ? text : `${text} ${extra.join(' ')}`;
}

/** Up to 8 search words from user input: letters and digits only, never query syntax. */
export function searchTokens(query: string): string[] {
  const words =
    query
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return words
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .map((word) => word.slice(0, 64))
    .slice(0, 8);
}
