// 0023-staff-list-indexes on both engines (ADR 0092): the lists' indexes exist after migrating,
// go with the migration undone, come back with it redone — and the overdue loans' page reads
// the open loans in due order from its index on SQLite (the planner's own words).
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

const NAMES = ['holds_shelf', 'loans_open_due', 'notices_person_id', 'notices_state_id'];

async function indexes(db: Kysely<DB>, dialect: string): Promise<string[]> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db);
  return rows
    .map((r) => r.name)
    .filter((n) => NAMES.includes(n))
    .sort();
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  test(`0023-staff-list-indexes on ${target.dialect}: up, down, up`, { skip: target.skip }, async () => {
    const database = await target.open();
    try {
      assert.deepEqual(await indexes(database.db, target.dialect), NAMES);
      const undone = await migrateDownThrough(database, catalogueMigrations, '0023-staff-list-indexes');
      assert.deepEqual(await indexes(database.db, target.dialect), []);
      assert.deepEqual(await migrateToLatest(database, catalogueMigrations), undone.reverse());
      assert.deepEqual(await indexes(database.db, target.dialect), NAMES);
      if (target.dialect === 'sqlite') {
        const { rows } = await sql<{ detail: string }>`explain query plan
          select id from loans where returned_at is null and due_at < '2026-11-27' order by due_at, id limit 21`.execute(
          database.db,
        );
        assert.match(rows.map((r) => r.detail).join('\n'), /USING INDEX loans_open_due/);
      }
    } finally {
      await database.dispose();
    }
  });
}
