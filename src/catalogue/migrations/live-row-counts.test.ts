// 0005-live-row-counts on both engines: the counts start from the rows already there (an
// upgrade of a populated catalogue) and stay equal to `count(*)` of live rows through bulk
// inserts, soft deletes, revivals, hard deletes and a rolled-back write; so does the count of
// live public persons (migration 0013), which the public person list states.
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

/** The kept counts and the counted ones, per table. */
async function counts(db: Kysely<DB>) {
  const kept = await db.selectFrom('live_row_counts').select(['name', 'n']).orderBy('name').execute();
  const live = async (table: 'persons' | 'works', extra = sql``) =>
    Number(
      (
        await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
          where deleted_at is null ${extra}`.execute(db)
      ).rows[0]?.n,
    );
  return {
    kept: Object.fromEntries(kept.map((r) => [r.name, Number(r.n)])),
    counted: {
      persons: await live('persons'),
      public_persons: await live('persons', sql`and public = 1`),
      works: await live('works'),
    },
  };
}

async function assertExact(db: Kysely<DB>, when: string): Promise<number> {
  const { kept, counted } = await counts(db);
  assert.deepEqual(kept, counted, when);
  return counted.works;
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  test(
    `0005-live-row-counts on ${target.dialect}: exact after every kind of write`,
    { skip: target.skip },
    async () => {
      const database = await target.open();
      try {
        const db = database.db;
        await migrateDownThrough(database, catalogueMigrations, '0005-live-row-counts');
        await generateWorks(db, 40);
        await migrateToLatest(database, catalogueMigrations);
        const before = await assertExact(db, 'an upgrade counts the rows already there');
        assert.equal(before, 40);

        await generateWorks(db, 600); // more than one insert statement (batches of 500)
        assert.equal(await assertExact(db, 'bulk insert'), 640);

        const ids = (await db.selectFrom('works').select('id').orderBy('id').limit(5).execute()).map(
          (r) => r.id,
        );
        const at = new Date().toISOString();
        await db.updateTable('works').set({ deleted_at: at }).where('id', 'in', ids).execute();
        assert.equal(await assertExact(db, 'soft delete'), 635);
        // Touching a deleted row again, and a live row's other columns, changes nothing.
        await db.updateTable('works').set({ deleted_at: at }).where('id', 'in', ids).execute();
        await db.updateTable('works').set({ updated_at: at }).where('id', '>', ids.at(-1)!).execute();
        assert.equal(await assertExact(db, 'updates that keep liveness'), 635);
        await db.updateTable('works').set({ deleted_at: null }).where('id', '=', ids[0]!).execute();
        assert.equal(await assertExact(db, 'revive'), 636);

        await db.deleteFrom('person_work').where('work_id', 'in', ids).execute();
        await db.deleteFrom('loans').where('work_id', 'in', ids).execute();
        await db.deleteFrom('works').where('id', 'in', ids).execute(); // one live, four deleted
        assert.equal(await assertExact(db, 'hard delete'), 635);

        await assert.rejects(
          db.transaction().execute(async (trx) => {
            await trx.updateTable('works').set({ deleted_at: at }).execute();
            throw new Error('rolled back');
          }),
          /rolled back/,
        );
        assert.equal(await assertExact(db, 'a rolled-back write'), 635);
      } finally {
        await database.dispose();
      }
    },
  );
}
