// A bulk import on PostgreSQL refreshes the planner's statistics as its tables grow (import.ts,
// STATISTICS_FROM): without them the triggers' statements keep the plans of empty tables, and a
// large load slows from batch to batch.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { DB } from '../tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { importSynthetic } from '../demo/index.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  if (target.dialect !== 'postgres') continue;
  describe('planner statistics during an import on postgres', { skip: target.skip }, () => {
    let database: TestDatabase<DB> | undefined;
    after(() => database?.dispose());

    test('are taken when the written records reach 1,000 and again each time they double', async () => {
      database = await target.open();
      const rows = async (table: string) => {
        const { rows } = await sql<{ n: number }>`select reltuples::int as n from pg_class
          where oid = ${table}::regclass`.execute(database!.db);
        return rows[0]!.n;
      };
      assert.equal(await rows('works'), -1, 'a fresh table has no statistics yet');
      // 500 persons, then 2,000 works, in batches of 1,000 records: statistics after the first
      // batch (1,000 written) and the second (2,000); the third (2,500) is below 4,000.
      await importSynthetic(database.db, 2000, 'stats');
      assert.equal(await rows('persons'), 500);
      assert.equal(await rows('works'), 1500, 'the works as they were after the second batch');
      assert.equal(await rows('person_work'), 1650);
    });
  });
}
