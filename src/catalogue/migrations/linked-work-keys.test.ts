// 0035-linked-work-keys on both engines: every link's `work_sort_key` is its work's sort key while
// the work is live and null once it is deleted — after an upgrade of a populated catalogue, after
// rows written with plain SQL as the demo generator writes them, and through every write path: a
// link added, moved to another work, a work renamed, deleted and undeleted. The key's own updates
// record no subjects on SQLite; a link's other changes still do.
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

/** The links whose key is not their work's live sort key; returns how many links there are. */
async function check(db: Kysely<DB>, when: string): Promise<number> {
  const { rows } = await sql<{
    work_id: number;
    person_id: number;
    kept: string | null;
    live: string | null;
  }>`
    select pw.work_id, pw.person_id, pw.work_sort_key as kept,
      case when w.deleted_at is null then w.sort_key end as live
    from person_work pw join works w on w.id = pw.work_id`.execute(db);
  const wrong = rows.filter((r) => r.kept !== r.live);
  assert.deepEqual(wrong, [], `${when}: every link carries its work's live key`);
  return rows.length;
}

async function insertRow(db: Kysely<DB>, table: 'persons' | 'works', slug: string): Promise<number> {
  const at = new Date().toISOString();
  const values =
    table === 'persons'
      ? { slug, vorname: 'Pat', nachname: slug, sort_key: slug, search_text: slug }
      : { slug, titel: slug, jahr: 1900, exemplare: 1, sort_key: slug, search_text: slug };
  const row = await db
    .insertInto(table)
    .values({ ...values, created_at: at, updated_at: at } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Marks the work deleted, as the store does (soft deletion). */
const deleteWork = (db: Kysely<DB>, id: number) =>
  db.updateTable('works').set({ deleted_at: new Date().toISOString() }).where('id', '=', id).execute();

const keyOf = async (db: Kysely<DB>, person: number, work: number) =>
  (
    await db
      .selectFrom('person_work')
      .select('work_sort_key')
      .where('person_id', '=', person)
      .where('work_id', '=', work)
      .executeTakeFirstOrThrow()
  ).work_sort_key;

/** How often the person's subject was recorded (the log keeps its newest rows). */
const recorded = async (db: Kysely<DB>, person: number) =>
  Number(
    (
      await sql<{
        n: number;
      }>`select count(*) as n from change_log where subject = ${`person:${person}`}`.execute(db)
    ).rows[0]?.n,
  );

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  test(
    `0035-linked-work-keys on ${target.dialect}: every link carries its work's key through every write`,
    { skip: target.skip },
    async () => {
      const database = await target.open();
      try {
        const db = database.db;
        await migrateDownThrough(database, catalogueMigrations, '0035-linked-work-keys');
        await generateWorks(db, 40);
        await migrateToLatest(database, catalogueMigrations);
        assert.ok((await check(db, 'an upgrade fills the keys')) > 0);
        if (target.dialect === 'postgres') {
          // The key orders as the works' (bytewise), whatever the database's collation.
          const { rows } = await sql<{ collation_name: string | null }>`
            select collation_name from information_schema.columns where table_schema = current_schema()
              and table_name = 'person_work' and column_name = 'work_sort_key'`.execute(db);
          assert.deepEqual(
            rows.map((r) => r.collation_name),
            ['C'],
          );
        }

        await generateWorks(db, 300); // plain SQL inserts, in batches (as the benchmark loader)
        await check(db, 'bulk insert');

        const person = await insertRow(db, 'persons', 'pat');
        const first = await insertRow(db, 'works', 'erstes');
        const second = await insertRow(db, 'works', 'zweites');
        await db
          .insertInto('person_work')
          .values({ person_id: person, work_id: first, position: 0 })
          .execute();
        assert.equal(await keyOf(db, person, first), 'erstes', 'a link added takes its work key');

        await db.updateTable('works').set({ sort_key: 'aaa erstes' }).where('id', '=', first).execute();
        assert.equal(await keyOf(db, person, first), 'aaa erstes', 'a work renamed');
        await deleteWork(db, first);
        assert.equal(await keyOf(db, person, first), null, 'a work deleted');
        await db.updateTable('works').set({ deleted_at: null }).where('id', '=', first).execute();
        assert.equal(await keyOf(db, person, first), 'aaa erstes', 'a work undeleted');

        await db.updateTable('person_work').set({ work_id: second }).where('work_id', '=', first).execute();
        assert.equal(await keyOf(db, person, second), 'zweites', 'a link moved to another work');
        await deleteWork(db, first);
        await db
          .insertInto('person_work')
          .values({ person_id: person, work_id: first, position: 1 })
          .execute();
        assert.equal(await keyOf(db, person, first), null, 'a link to a deleted work has no key');
        // Renamed several at once, in one statement.
        await db
          .updateTable('works')
          .set({ sort_key: sql`sort_key || ' neu'` })
          .where('id', '<=', 20)
          .execute();
        await check(db, 'every write path');

        // The links' own subjects (ADR 0098) are not recorded for their key alone, where the
        // engine can tell (SQLite); a link's order still is.
        await sql`delete from change_log where subject = ${`person:${person}`}`.execute(db);
        await db
          .updateTable('person_work')
          .set({ work_sort_key: 'x' })
          .where('work_id', '=', second)
          .execute();
        if (target.dialect === 'sqlite') assert.equal(await recorded(db, person), 0, 'a key changed alone');
        await db.updateTable('person_work').set({ position: 3 }).where('work_id', '=', second).execute();
        assert.ok((await recorded(db, person)) > 0, "a link's order changed");
      } finally {
        await database.dispose();
      }
    },
  );
}
