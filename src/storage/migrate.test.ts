import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest, type MigrationSet } from './migrate.ts';
import { openFreshSchema, testTargets } from '../../test/kit/storage/targets.ts';
import { skipUnlessPg } from '../../test/support/pg.ts';

const set: MigrationSet = () => ({
  '0001-things': {
    up: async (db) => {
      await db.schema.createTable('things').addColumn('id', 'integer').execute();
    },
  },
});

test('PostgreSQL: each schema of one database keeps its own migration state', skipUnlessPg, async () => {
  // Kysely finds its migration tables by name in any schema unless told which one; the first
  // schema's tables must not make the second skip creating its own.
  const first = await openFreshSchema<unknown>();
  const second = await openFreshSchema<unknown>();
  try {
    assert.deepEqual(await migrateToLatest(first, set), ['0001-things']);
    assert.deepEqual(await migrateToLatest(second, set), ['0001-things']);
    assert.deepEqual(await migrateToLatest(second, set), []);
    const { rows } = await sql<{ n: string }>`select count(*) as n from things`.execute(second.db);
    assert.equal(Number(rows[0]?.n), 0);
  } finally {
    await first.dispose();
    await second.dispose();
  }
});

test('PostgreSQL: migrating while other schemas come and go never fails', skipUnlessPg, async () => {
  // Other processes (parallel test files, another Shelfmark) create and drop schemas in the
  // same database; the Migrator's check for its own tables must not read their tables.
  const churn = await openFreshSchema<unknown>();
  let stop = false;
  const churning = (async () => {
    for (let i = 0; !stop; i++) {
      const name = sql.id(`migrate_churn_${process.pid}_${i}`);
      await sql`create schema ${name}`.execute(churn.db);
      await sql`create table ${name}.t (id serial primary key, a text, b text, c text)`.execute(churn.db);
      await sql`drop schema ${name} cascade`.execute(churn.db);
    }
  })();
  try {
    for (let round = 0; round < 15; round++) {
      const database = await openFreshSchema<unknown>();
      try {
        assert.deepEqual(await migrateToLatest(database, set), ['0001-things']);
      } finally {
        await database.dispose();
      }
    }
  } finally {
    stop = true;
    await churning;
    await churn.dispose();
  }
});

for (const target of testTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  test(
    `${target.dialect}: a lower number merged after a higher one already ran is applied`,
    { skip: target.skip },
    async () => {
      const database = await target.open();
      const table = (name: string) => ({
        up: async (db: Parameters<NonNullable<ReturnType<MigrationSet>[string]>['up']>[0]) => {
          await db.schema.createTable(name).addColumn('id', 'integer').execute();
        },
      });
      try {
        assert.deepEqual(
          await migrateToLatest(database, () => ({ '0001-a': table('a'), '0014-c': table('c') })),
          ['0001-a', '0014-c'],
        );
        const all = () => ({ '0001-a': table('a'), '0011-b': table('b'), '0014-c': table('c') });
        assert.deepEqual(await migrateToLatest(database, all), ['0011-b']);
        assert.deepEqual(await migrateToLatest(database, all), []);
      } finally {
        await database.dispose();
      }
    },
  );
}
