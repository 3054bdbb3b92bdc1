// Synthetic catalogue written straight into the tables, in batches inside one transaction, as
// the stores of every schema since 0001 would write it: for tests of migrations, which need rows
// written at an older schema. Everything else loads the same catalogue through the import
// (`shelfmark demo --works N`, ../transfer): see synthetic.ts.
import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { detectCapabilities, placeUnranked, searchText } from '../../storage/index.ts';
import { personSortKey } from '../persons/index.ts';
import type { DB } from '../tables.ts';
import { workSearchText, workSortKey } from '../works/index.ts';
import { syntheticPerson, syntheticPersonCount, syntheticWork } from './synthetic.ts';

const BATCH = 500;
/** Inserts `n` works (and n/4 persons); returns what it created and how long it took. */
export async function generateWorks(
  db: Kysely<DB>,
  n: number,
  tag: string = randomBytes(3).toString('hex'),
): Promise<{ persons: number; works: number; ms: number }> {
  const started = performance.now();
  const at = new Date().toISOString();
  const personCount = syntheticPersonCount(n);
  await db.transaction().execute(async (trx) => {
    const people: { id: number; vorname: string; nachname: string }[] = [];
    for (let start = 0; start < personCount; start += BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(personCount, start + BATCH); i += 1) {
        const { type: _type, externeId: _id, ...p } = syntheticPerson(i, tag);
        rows.push({
          ...p,
          sort_key: personSortKey(p.vorname, p.nachname),
          search_text: searchText(p.vorname, p.nachname),
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
        const {
          type: _type,
          authors: numbers,
          externeId: _id,
          isbn: _isbn,
          ...work
        } = syntheticWork(i, tag, people.length);
        const persons = numbers.map((k) => people[k]!);
        authors.push(persons);
        rows.push({
          ...work,
          // No copy rows: this writer serves schemas before copies (migration 0010).
          exemplare: work.exemplare ?? 0,
          sort_key: workSortKey(work.titel),
          search_text: workSearchText(work.titel, persons),
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
