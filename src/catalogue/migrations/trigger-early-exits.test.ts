// 0032-trigger-early-exits on PostgreSQL: which functions a statement runs, read from
// `pg_stat_xact_user_functions` inside its transaction. A work's year changed recomputes its
// persons' decades and nothing about persons themselves (before 0032, `works_deleted_public`'s
// `update persons` matched no row yet fired every trigger on persons); a statement that matches
// no row runs no helper at all. Down and up again give back the functions' exact sources, and
// every function of a statement trigger opens with its guard (a new trigger needs one too).
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { test } from 'node:test';
import { migrateToLatest } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

/**
 * The PL/pgSQL functions `statement` called, in one transaction rolled back after. The counts
 * are read before and after it: a backend's view also holds calls it has not yet reported.
 */
async function calledBy(db: Kysely<DB>, statement: (tx: Kysely<DB>) => Promise<unknown>): Promise<string[]> {
  let called: string[] = [];
  const calls = async (tx: Kysely<DB>) =>
    new Map(
      (
        await sql<{ funcname: string; calls: string }>`select funcname, calls
          from pg_stat_xact_user_functions`.execute(tx)
      ).rows.map((r) => [r.funcname, Number(r.calls)]),
    );
  await db
    .transaction()
    .execute(async (tx) => {
      await sql`set local track_functions = 'pl'`.execute(tx);
      const before = await calls(tx);
      await statement(tx);
      const after = await calls(tx);
      called = [...after]
        .filter(([name, n]) => n > (before.get(name) ?? 0))
        .map(([name]) => name)
        .sort();
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return called;
}

class Rollback extends Error {}

async function sources(db: Kysely<DB>): Promise<Map<string, string>> {
  const { rows } = await sql<{ proname: string; prosrc: string }>`select proname, prosrc from pg_proc
    where pronamespace = current_schema()::regnamespace and prolang = (select oid from pg_language where lanname = 'plpgsql')`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.proname, r.prosrc]));
}

const target = catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL).find(
  (t) => t.dialect === 'postgres',
)!;

test(
  '0032-trigger-early-exits on postgres: statement triggers run only for what their statement changed',
  { skip: target.skip },
  async () => {
    const database = await target.open();
    try {
      const db = database.db;
      await generateWorks(db, 40);
      const work = await db
        .selectFrom('works')
        .innerJoin('person_work', 'person_work.work_id', 'works.id')
        .select(['works.id', 'works.jahr'])
        .where('works.jahr', 'is not', null)
        .executeTakeFirstOrThrow();
      const newYear = (tx: Kysely<DB>) =>
        tx
          .updateTable('works')
          .set({ jahr: work.jahr! + 20 })
          .where('id', '=', work.id)
          .execute();
      const noRow = (tx: Kysely<DB>) =>
        tx.updateTable('works').set({ exemplare: 1 }).where('id', '=', -1).execute();
      const helpers = (names: string[]) => names.filter((n) => !n.startsWith('works_'));

      const guarded = await sources(db);
      await migrateDownThrough(database, catalogueMigrations, '0032-trigger-early-exits');
      const unguarded = await sources(db);
      // The contrast the guards remove: the same statements before 0032.
      const before = await calledBy(db, newYear);
      assert.ok(
        before.includes('persons_terms_update'),
        `before 0032 a year fired persons' triggers: ${before}`,
      );
      assert.ok(helpers(await calledBy(db, noRow)).length > 0, 'before 0032 no row still ran helpers');

      await migrateToLatest(database, catalogueMigrations);
      assert.deepEqual(await sources(db), guarded, 'up again gives the same functions');
      for (const [name, source] of unguarded)
        assert.equal(
          guarded.get(name)!.replace(/ \/\* early exit \*\/ .*? \/\* early exit \*\//s, ''),
          source,
          `${name}: only a guard is new`,
        );
      const { rows: triggered } = await sql<{ name: string }>`select distinct p.proname as name
        from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where (t.tgoldtable is not null or t.tgnewtable is not null)
          and p.pronamespace = current_schema()::regnamespace`.execute(db);
      assert.ok(triggered.length > 50, `the statement triggers (${triggered.length})`);
      for (const { name } of triggered)
        assert.match(
          guarded.get(name)!,
          /^\s*(declare\b[\s\S]*?)?\bbegin \/\* early exit \*\/ if not \(/i,
          `${name} exits early`,
        );

      const after = await calledBy(db, newYear);
      assert.ok(after.includes('person_decades_recompute'), `the year moves the decades: ${after}`);
      assert.deepEqual(
        after.filter((n) => n.startsWith('persons_')),
        [],
        'a year touches no trigger on persons',
      );
      assert.deepEqual(helpers(await calledBy(db, noRow)), [], 'a statement without rows runs no helper');
      const title = (tx: Kysely<DB>) =>
        tx
          .updateTable('works')
          .set({ titel: sql`titel` })
          .where('id', '=', work.id)
          .execute();
      assert.ok(
        !(await calledBy(db, title)).includes('person_decades_recompute'),
        'a title keeps the decades',
      );
    } finally {
      await database.dispose();
    }
  },
);
