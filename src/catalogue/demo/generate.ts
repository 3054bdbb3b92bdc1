// Synthetic catalogue for benchmarks: n works, one person per four works (some works have two),
// inserted in batches inside one transaction. Slugs carry a run tag so runs can be repeated.
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { detectCapabilities, placeUnranked, searchText, slugify } from '../../storage/index.ts';
import { personSortKey } from '../persons/store.ts';
import type { DB } from '../tables.ts';
import { workSearchText } from '../works/search-text.ts';
import { workSortKey } from '../works/store.ts';

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

const BATCH = 500;

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

/** Inserts `n` works (and n/4 persons); returns what it created and how long it took. */
export async function generateWorks(
  db: Kysely<DB>,
  n: number,
): Promise<{ persons: number; works: number; ms: number }> {
  const started = performance.now();
  const tag = randomBytes(3).toString('hex');
  const at = new Date().toISOString();
  const personCount = Math.max(1, Math.ceil(n / 4));
  await db.transaction().execute(async (trx) => {
    const people: { id: number; vorname: string; nachname: string }[] = [];
    for (let start = 0; start < personCount; start += BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(personCount, start + BATCH); i += 1) {
        const vorname = pick(VORNAMEN, i * 7);
        const nachname = pick(NACHNAMEN, i * 3 + Math.floor(i / 16));
        rows.push({
          slug: `${slugify(`${vorname} ${nachname}`)}-${tag}-${i}`,
          vorname,
          nachname,
          image: null,
          geboren: 1900 + (i % 100),
          gestorben: null,
          sort_key: personSortKey(vorname, nachname),
          search_text: searchText(vorname, nachname),
          created_at: at,
          updated_at: at,
        });
      }
      const ids = await trx.insertInto('persons').values(rows).returning(['id', 'slug']).execute();
      const bySlug = new Map(ids.map((r) => [r.slug, r.id]));
      for (const row of rows)
        people.push({ id: bySlug.get(row.slug) as number, vorname: row.vorname, nachname: row.nachname });
    }
    for (let start = 0; start < n; start += BATCH) {
      const rows = [];
      const authors: (typeof people)[] = [];
      for (let i = start; i < Math.min(n, start + BATCH); i += 1) {
        const nomen = pick(NOMEN, i * 5 + Math.floor(i / 12));
        const titel = `${ARTIKEL[nomen] ?? 'Der'} ${pick(ADJEKTIVE, i)} ${nomen} ${Math.floor(i / 168) + 1}`;
        const first = people[i % people.length] as (typeof people)[number];
        const persons =
          i % 10 === 0 && people.length > 1
            ? [first, people[(i + 1) % people.length] as typeof first]
            : [first];
        authors.push(persons);
        rows.push({
          slug: `${slugify(titel)}-${tag}-${i}`,
          titel,
          jahr: 1800 + (i % 220),
          exemplare: 1 + (i % 5),
          sort_key: workSortKey(titel),
          search_text: workSearchText(titel, persons),
          created_at: at,
          updated_at: at,
        });
      }
      const ids = await trx.insertInto('works').values(rows).returning(['id', 'slug']).execute();
      const bySlug = new Map(ids.map((r) => [r.slug, r.id]));
      const links = rows.flatMap((row, k) =>
        (authors[k] ?? []).map((p, position) => ({
          person_id: p.id,
          work_id: bySlug.get(row.slug) as number,
          position,
        })),
      );
      await trx.insertInto('person_work').values(links).execute();
    }
    await placeUnranked(trx, detectCapabilities(db), 'works');
    await placeUnranked(trx, detectCapabilities(db), 'persons');
  });
  // Fresh planner statistics, or PostgreSQL plans the first queries for empty tables.
  await sql`analyze`.execute(db);
  return { persons: personCount, works: n, ms: Math.round(performance.now() - started) };
}
