// Stemming (docs/decisions/0079-stemming-and-suggestions.md): `search_text` now also holds the
// German and English stems of every word (storage/text.ts `searchText`). Rows written before
// are rewritten here, in batches in id order, by the same code the stores write with, so an old
// catalogue finds `goethes` as a new one does; the indexes follow by their triggers (FTS5 and
// the ranked index on SQLite, the tsvector and the term index on PostgreSQL).
// Down leaves the text as it is: the older code searches it unchanged (the stems are extra
// words that only whole-word stem terms, which it never sends, and prefixes of them match).
import { sql, type Kysely, type Migration } from 'kysely';
import { searchText, type MigrationContext } from '../../storage/index.ts';
import { workSearchText } from '../works/index.ts';

type Db = Kysely<unknown>;

/** Rows per batch: one statement each, 2 parameters a row (SQLite allows 32,766). */
const BATCH = 500;

interface Rewritten {
  readonly id: number;
  readonly text: string;
}

async function rewrite(db: Db, table: 'works' | 'persons', batch: readonly Rewritten[]): Promise<void> {
  if (batch.length === 0) return;
  // A CTE names the columns of VALUES on both engines; the casts type PostgreSQL's parameters.
  const values = sql.join(batch.map((r) => sql`(cast(${r.id} as integer), cast(${r.text} as text))`));
  await sql`with v(id, text) as (values ${values})
    update ${sql.table(table)} set search_text = v.text from v
    where ${sql.ref(`${table}.id`)} = v.id and ${sql.ref(`${table}.search_text`)} <> v.text`.execute(db);
}

async function rewritePersons(db: Db): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; vorname: string; nachname: string }>`select id, vorname, nachname
      from persons where id > ${after} order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    await rewrite(
      db,
      'persons',
      rows.map((p) => ({ id: p.id, text: searchText(p.vorname, p.nachname) })),
    );
    after = rows.at(-1)!.id;
  }
}

async function rewriteWorks(db: Db): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; titel: string }>`select id, titel
      from works where id > ${after} order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const first = rows[0]!.id;
    const last = rows.at(-1)!.id;
    // Every person of the batch's works, deleted ones too (the stores index their names as well).
    const { rows: names } = await sql<{ work_id: number; vorname: string; nachname: string }>`select
        pw.work_id, p.vorname, p.nachname
      from person_work as pw join persons as p on p.id = pw.person_id
      where pw.work_id between ${first} and ${last} order by pw.work_id, pw.position`.execute(db);
    const byWork = new Map<number, { vorname: string; nachname: string }[]>();
    for (const { work_id, ...name } of names) byWork.set(work_id, [...(byWork.get(work_id) ?? []), name]);
    await rewrite(
      db,
      'works',
      rows.map((w) => ({ id: w.id, text: workSearchText(w.titel, byWork.get(w.id) ?? []) })),
    );
    after = last;
  }
}

export function searchStems(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await rewritePersons(db);
      await rewriteWorks(db);
    },
    async down() {},
  };
}
