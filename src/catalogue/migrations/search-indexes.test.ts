// 0002-search-indexes on SQLite: rebuilds the FTS5 tables (prefix indexes 1–8, one segment)
// from the rows already there, adds the vocab tables, and can be undone.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

test('0002-search-indexes rebuilds the FTS5 tables from existing rows and can be undone', async () => {
  const sqlite = catalogueTestTargets(undefined).find((t) => t.dialect === 'sqlite')!;
  const database = await sqlite.open();
  try {
    const db = database.db;
    const ftsSql = async () =>
      (await sql<{ sql: string }>`select sql from sqlite_master where name = 'works_fts'`.execute(db)).rows[0]
        ?.sql;
    const matches = async (q: string) =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from works_fts where works_fts match ${q}`.execute(db))
          .rows[0]?.n,
      );
    // The later migrations go down first.
    const undone = await migrateDownThrough(database, catalogueMigrations, '0002-search-indexes');
    assert.match((await ftsSql()) ?? '', /prefix='2 3'/);
    await generateWorks(db, 120);
    const kleine = await matches('"kleine"*');
    assert.ok(kleine > 0);

    assert.deepEqual(await migrateToLatest(database, catalogueMigrations), undone.reverse());
    assert.match((await ftsSql()) ?? '', /prefix='1 2 3 4 5 6 7 8'/);
    // The rebuilt index holds the rows written before it, and the triggers feed it again.
    assert.equal(await matches('"kleine"*'), kleine);
    const { rows } = await sql<{ term: string; doc: number }>`select term, doc from works_fts_vocab
      where term = 'kleine'`.execute(db);
    assert.deepEqual(rows, [{ term: 'kleine', doc: kleine }]);
    await generateWorks(db, 12);
    assert.ok((await matches('"kleine"*')) > kleine);
  } finally {
    await database.dispose();
  }
});

const postgres = catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL).find(
  (t) => t.dialect === 'postgres',
)!;

test(
  '0002-search-indexes on PostgreSQL: GIN without a pending list, and back',
  { skip: postgres.skip },
  async () => {
    const database = await postgres.open();
    try {
      const options = async () =>
        (
          await sql<{ options: string[] | null }>`select reloptions as options from pg_class
          where relname = 'works_search' and relnamespace = current_schema()::regnamespace`.execute(
            database.db,
          )
        ).rows[0]?.options;
      assert.deepEqual(await options(), ['fastupdate=off']);
      await migrateDownThrough(database, catalogueMigrations, '0002-search-indexes');
      assert.deepEqual(await options(), ['fastupdate=on']);
    } finally {
      await database.dispose();
    }
  },
);
