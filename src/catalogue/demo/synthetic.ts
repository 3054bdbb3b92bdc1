// The synthetic catalogue for benchmarks and tests: person i and work i as pure functions of i
// (and a run tag that keeps slugs apart between runs), so the same catalogue can be written as
// records (`shelfmark demo --works N --output FILE`, then `shelfmark import FILE`), imported
// directly (`shelfmark demo --works N`), or inserted at an older schema (generate.ts).
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { slugify } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { importRecords } from '../transfer/index.ts';
import type { PersonRecord, WorkRecord } from '../transfer/index.ts';

const VORNAMEN = [
  'Anna',
  'Jörg',
  'Lena',
  'Paul',
  'Sophie',
  'Jürgen',
  'Clara',
  'Max',
  'Emilia',
  'Lukas',
  'Marie',
  'Felix',
  'Greta',
  'Ömer',
  'Hanna',
  'Jonas',
];
const NACHNAMEN = [
  'Müller',
  'Schmidt',
  'Schäfer',
  'Köhler',
  'Weiß',
  'Becker',
  'Hoffmann',
  'Koch',
  'Richter',
  'Groß',
  'Wagner',
  'von Arnim',
  'Böhm',
  'Krüger',
  'Neumann',
  'Lehmann',
];
const ADJEKTIVE = [
  'stille',
  'dunkle',
  'ferne',
  'letzte',
  'grüne',
  'verlorene',
  'goldene',
  'schöne',
  'kühle',
  'große',
  'fröhliche',
  'kleine',
];
const NOMEN = [
  'Garten',
  'Fluss',
  'Morgen',
  'Brücke',
  'Stadt',
  'Sommer',
  'Spiegel',
  'Wald',
  'Straße',
  'Insel',
  'Abend',
  'Tür',
  'Reise',
  'Zug',
];
const ARTIKEL: Readonly<Record<string, string>> = {
  Brücke: 'Die',
  Stadt: 'Die',
  Straße: 'Die',
  Insel: 'Die',
  Tür: 'Die',
  Reise: 'Die',
};

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

/** One person per four works, at least one. */
export function syntheticPersonCount(works: number): number {
  return Math.max(1, Math.ceil(works / 4));
}

export function syntheticPerson(i: number, tag: string): PersonRecord & { readonly slug: string } {
  const vorname = pick(VORNAMEN, i * 7);
  const nachname = pick(NACHNAMEN, i * 3 + Math.floor(i / 16));
  return {
    type: 'person',
    slug: `${slugify(`${vorname} ${nachname}`)}-${tag}-${i}`,
    externeId: null,
    vorname,
    nachname,
    image: null,
    geboren: 1900 + (i % 100),
    gestorben: null,
  };
}

/** Work i: its persons are given by their numbers (every tenth work has two). */
export function syntheticWork(
  i: number,
  tag: string,
  persons: number,
): Omit<WorkRecord, 'personen'> & { readonly slug: string; readonly authors: readonly number[] } {
  const nomen = pick(NOMEN, i * 5 + Math.floor(i / 12));
  const titel = `${ARTIKEL[nomen] ?? 'Der'} ${pick(ADJEKTIVE, i)} ${nomen} ${Math.floor(i / 168) + 1}`;
  const first = i % persons;
  return {
    type: 'work',
    slug: `${slugify(titel)}-${tag}-${i}`,
    externeId: null,
    titel,
    jahr: 1800 + (i % 220),
    isbn: null,
    exemplare: 1 + (i % 5),
    authors: i % 10 === 0 && persons > 1 ? [first, (i + 1) % persons] : [first],
  };
}

/** The records of `works` synthetic works and their persons, persons first; generated as read. */
export function* syntheticRecords(works: number, tag: string): Generator<PersonRecord | WorkRecord> {
  const persons = syntheticPersonCount(works);
  for (let i = 0; i < persons; i += 1) yield syntheticPerson(i, tag);
  for (let i = 0; i < works; i += 1) {
    const { authors, ...work } = syntheticWork(i, tag, persons);
    yield { ...work, personen: authors.map((p) => syntheticPerson(p, tag).slug) };
  }
}

/** Imports `works` synthetic works and their persons through the import (../transfer). */
export async function importSynthetic(
  db: Kysely<DB>,
  works: number,
  tag: string = randomBytes(3).toString('hex'),
): Promise<{ persons: number; works: number; ms: number }> {
  const started = performance.now();
  async function* items() {
    let line = 0;
    for (const record of syntheticRecords(works, tag)) yield { line: ++line, record };
  }
  const summary = await importRecords(db, items(), {
    onBad: (line, reason) => {
      throw new Error(`synthetic record ${line} refused: ${reason}`);
    },
  });
  return {
    persons: summary.counts.person.new,
    works: summary.counts.work.new,
    ms: Math.round(performance.now() - started),
  };
}
