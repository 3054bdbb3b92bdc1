// 0013-public-persons on both engines: `persons.public` is 1 exactly while the person has a live
// work, and `live_row_counts.public_persons` counts the live public persons — after an upgrade of
// a populated catalogue, after rows written with plain SQL as the benchmark loader and the demo
// generator write them, and through every write that adds or takes away a person's last work.
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

/** Persons whose flag differs from what their works say; and the kept vs the counted total. */
async function check(db: Kysely<DB>, when: string): Promise<number> {
  const { rows: wrong } = await sql<{ id: number }>`select id from persons
    where public <> case when exists (select 1 from person_work pw join works w on w.id = pw.work_id
      where pw.person_id = persons.id and w.deleted_at is null) then 1 else 0 end`.execute(db);
  assert.deepEqual(wrong, [], `${when}: every flag follows the live works`);
  const kept = await db
    .selectFrom('live_row_counts')
    .select('n')
    .where('name', '=', 'public_persons')
    .executeTakeFirstOrThrow();
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from persons
    where deleted_at is null and public = 1`.execute(db);
  assert.equal(Number(kept.n), Number(rows[0]?.n), `${when}: the kept count`);
  return Number(kept.n);
}

const isPublic = async (db: Kysely<DB>, id: number) =>
  (await db.selectFrom('persons').select('public').where('id', '=', id).executeTakeFirstOrThrow()).public;

async function insertPerson(db: Kysely<DB>, slug: string): Promise<number> {
  const at = new Date().toISOString();
  const row = await db
    .insertInto('persons')
    .values({
      slug,
      vorname: 'Pat',
      nachname: slug,
      sort_key: slug,
      search_text: slug,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertWork(db: Kysely<DB>, slug: string): Promise<number> {
  const at = new Date().toISOString();
  const row = await db
    .insertInto('works')
    .values({
      slug,
      titel: slug,
      jahr: null,
      exemplare: 1,
      sort_key: slug,
      search_text: slug,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  test(
    `0013-public-persons on ${target.dialect}: the flag and the count follow the live works`,
    { skip: target.skip },
    async () => {
      const database = await target.open();
      try {
        const db = database.db;
        await migrateDownThrough(database, catalogueMigrations, '0013-public-persons');
        await generateWorks(db, 40);
        const patronBefore = await insertPerson(db, 'patron-vorher');
        await migrateToLatest(database, catalogueMigrations);
        assert.equal(await check(db, 'an upgrade fills the flag in'), 10);
        assert.equal(await isPublic(db, patronBefore), 0, 'a person without works is not public');

        await generateWorks(db, 600); // plain SQL inserts, batches of 500 (as the benchmark loader)
        assert.equal(await check(db, 'bulk insert'), 160);

        const patron = await insertPerson(db, 'patron');
        assert.equal(await check(db, 'a patron'), 160);
        assert.equal(await isPublic(db, patron), 0);

        const first = await insertWork(db, 'erstes-werk');
        const second = await insertWork(db, 'zweites-werk');
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: first, position: 0 })
          .execute();
        assert.equal(await check(db, 'a first work'), 161);
        assert.equal(await isPublic(db, patron), 1, 'an author now');
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: second, position: 0 })
          .execute();

        const at = new Date().toISOString();
        await db.updateTable('works').set({ deleted_at: at }).where('id', '=', first).execute();
        assert.equal(await isPublic(db, patron), 1, 'one live work is left');
        await db.updateTable('works').set({ deleted_at: at }).where('id', '=', second).execute();
        assert.equal(await check(db, 'the last work deleted'), 160);
        assert.equal(await isPublic(db, patron), 0);
        await db.updateTable('works').set({ deleted_at: null }).where('id', '=', second).execute();
        assert.equal(await check(db, 'a work undeleted'), 161);

        await db.deleteFrom('person_work').where('work_id', '=', second).execute();
        assert.equal(await check(db, 'the link removed'), 160);
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: second, position: 0 })
          .execute();
        await db
          .updateTable('person_work')
          .set({ person_id: patronBefore })
          .where('work_id', '=', second)
          .execute();
        assert.equal(await check(db, 'the link moved to another person'), 161);
        assert.deepEqual([await isPublic(db, patron), await isPublic(db, patronBefore)], [0, 1]);

        await db.deleteFrom('works').where('id', '=', second).execute(); // cascades to person_work
        assert.equal(await check(db, 'a work removed'), 160);

        // A public person deleted and undeleted; a whole batch of works deleted at once.
        const author = (
          await db.selectFrom('persons').select('id').where('public', '=', 1).executeTakeFirstOrThrow()
        ).id;
        await db.updateTable('persons').set({ deleted_at: at }).where('id', '=', author).execute();
        assert.equal(await check(db, 'an author deleted'), 159);
        await db.updateTable('persons').set({ deleted_at: null }).where('id', '=', author).execute();
        await db.updateTable('works').set({ deleted_at: at }).where('deleted_at', 'is', null).execute();
        assert.equal(await check(db, 'every work deleted'), 0);

        await assert.rejects(
          db.transaction().execute(async (trx) => {
            await trx.updateTable('works').set({ deleted_at: null }).execute();
            throw new Error('rolled back');
          }),
          /rolled back/,
        );
        assert.equal(await check(db, 'a rolled-back write'), 0);
      } finally {
        await database.dispose();
      }
    },
  );
}
