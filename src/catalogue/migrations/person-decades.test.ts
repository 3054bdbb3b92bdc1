// 0031-person-decades on both engines: `person_decades` holds exactly, per person and decade, the
// number of the person's live works of that decade and the person's sort key — after an upgrade
// of a populated catalogue, after rows written with plain SQL as the demo generator writes them,
// and through every write path: links added, removed and moved, a work's year changed, a work
// deleted, undeleted and removed, a person renamed and removed, a rolled-back write. Its writes
// are recorded in change_log (`person-decades`), which the persons list's cache depends on.
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

type Row = { person_id: number; decade: number; sort_key: string; work_count: number };

/** The kept rows and a brute-force reading of the tables, compared; returns the row count. */
async function check(db: Kysely<DB>, when: string): Promise<number> {
  const norm = (rows: Row[]) =>
    rows
      .map((r) => ({
        ...r,
        person_id: Number(r.person_id),
        decade: Number(r.decade),
        work_count: Number(r.work_count),
      }))
      .sort((a, b) => a.person_id - b.person_id || a.decade - b.decade);
  const { rows: kept } =
    await sql<Row>`select person_id, decade, sort_key, work_count from person_decades`.execute(db);
  const { rows: truth } = await sql<Row>`select pw.person_id, w.jahr - ((w.jahr % 10) + 10) % 10 as decade,
      p.sort_key, count(*) as work_count
    from person_work pw join works w on w.id = pw.work_id join persons p on p.id = pw.person_id
    where w.deleted_at is null and w.jahr is not null
    group by pw.person_id, w.jahr - ((w.jahr % 10) + 10) % 10, p.sort_key`.execute(db);
  assert.deepEqual(norm(kept), norm(truth), `${when}: person_decades follows the live works`);
  return kept.length;
}

const decadesOf = async (db: Kysely<DB>, id: number) =>
  (
    await db
      .selectFrom('person_decades')
      .select(['decade', 'work_count'])
      .where('person_id', '=', id)
      .orderBy('decade')
      .execute()
  ).map((r) => [Number(r.decade), Number(r.work_count)]);

async function insertPerson(db: Kysely<DB>, slug: string): Promise<number> {
  const at = new Date().toISOString();
  const values = { slug, vorname: 'Pat', nachname: slug, sort_key: slug, search_text: slug };
  const row = await db
    .insertInto('persons')
    .values({ ...values, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertWork(db: Kysely<DB>, slug: string, jahr: number | null): Promise<number> {
  const at = new Date().toISOString();
  const values = { slug, titel: slug, jahr, exemplare: 1, sort_key: slug, search_text: slug };
  const row = await db
    .insertInto('works')
    .values({ ...values, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const logged = async (db: Kysely<DB>) =>
  Number(
    (
      await sql<{ n: number }>`select count(*) as n from change_log where subject = 'person-decades'`.execute(
        db,
      )
    ).rows[0]?.n,
  );

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  test(
    `0031-person-decades on ${target.dialect}: the kept decades follow every write`,
    { skip: target.skip },
    async () => {
      const database = await target.open();
      try {
        const db = database.db;
        await migrateDownThrough(database, catalogueMigrations, '0031-person-decades');
        await generateWorks(db, 40);
        await migrateToLatest(database, catalogueMigrations);
        assert.ok((await check(db, 'an upgrade fills the table')) > 0);
        if (target.dialect === 'postgres') {
          // The kept keys order as the persons' (bytewise), whatever the database's collation.
          const { rows } = await sql<{ table_name: string; collation_name: string | null }>`
            select table_name, collation_name from information_schema.columns
            where table_schema = current_schema() and column_name = 'sort_key'
              and table_name in ('persons', 'person_decades') order by table_name`.execute(db);
          assert.deepEqual(
            rows.map((r) => [r.table_name, r.collation_name]),
            [
              ['person_decades', 'C'],
              ['persons', 'C'],
            ],
          );
        }

        await generateWorks(db, 600); // plain SQL inserts, in batches (as the benchmark loader)
        await check(db, 'bulk insert');

        const patron = await insertPerson(db, 'patron');
        const other = await insertPerson(db, 'other');
        const first = await insertWork(db, 'erstes-werk', 1805);
        const second = await insertWork(db, 'zweites-werk', 1809);
        const undated = await insertWork(db, 'ohne-jahr', null);
        const before = await logged(db);
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: first, position: 0 })
          .execute();
        assert.deepEqual(await decadesOf(db, patron), [[1800, 1]], 'a first work');
        assert.ok((await logged(db)) > before, 'the write is recorded for the cache');
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: second, position: 0 })
          .execute();
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: undated, position: 0 })
          .execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [[1800, 2]],
          'a second work of the decade; an undated one',
        );

        await db.updateTable('works').set({ jahr: 1912 }).where('id', '=', second).execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [
            [1800, 1],
            [1910, 1],
          ],
          'a year changed',
        );
        await db.updateTable('works').set({ jahr: -5 }).where('id', '=', undated).execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [
            [-10, 1],
            [1800, 1],
            [1910, 1],
          ],
          'a year before 0 is floored',
        );
        await check(db, 'years changed');

        const at = new Date().toISOString();
        await db.updateTable('works').set({ deleted_at: at }).where('id', '=', first).execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [
            [-10, 1],
            [1910, 1],
          ],
          'a work deleted',
        );
        await db.updateTable('works').set({ deleted_at: null }).where('id', '=', first).execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [
            [-10, 1],
            [1800, 1],
            [1910, 1],
          ],
          'a work undeleted',
        );

        await db.deleteFrom('person_work').where('work_id', '=', second).execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [
            [-10, 1],
            [1800, 1],
          ],
          'the link removed',
        );
        await db
          .insertInto('person_work')
          .values({ person_id: patron, work_id: second, position: 0 })
          .execute();
        await db.updateTable('person_work').set({ person_id: other }).where('work_id', '=', second).execute();
        assert.deepEqual(
          await decadesOf(db, patron),
          [
            [-10, 1],
            [1800, 1],
          ],
          'the link moved away',
        );
        assert.deepEqual(await decadesOf(db, other), [[1910, 1]], 'the link moved here');

        await db.updateTable('persons').set({ sort_key: 'aaa neu' }).where('id', '=', patron).execute();
        await check(db, 'a person renamed (its sort key follows)');

        await db.deleteFrom('works').where('id', '=', first).execute(); // cascades to person_work
        assert.deepEqual(await decadesOf(db, patron), [[-10, 1]], 'a work removed');
        await db.deleteFrom('persons').where('id', '=', other).execute();
        assert.deepEqual(await decadesOf(db, other), [], 'a person removed');
        await check(db, 'rows removed');

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
        await db.updateTable('works').set({ deleted_at: null }).execute();
        assert.ok((await check(db, 'every work undeleted')) > 0);
      } finally {
        await database.dispose();
      }
    },
  );
}
