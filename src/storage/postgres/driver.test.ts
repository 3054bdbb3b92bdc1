// Named statements on PostgreSQL (ADR 0068): a prepare()d query is parsed and planned once per
// connection and reused; a replaced connection prepares it again; a statement the server has
// forgotten or can no longer plan still answers; results equal the unprepared query's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CompiledQuery, sql, type Generated, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../open.ts';
import { param, prepare } from '../prepared.ts';
import { statementName, withGenericPlan } from '../statement-name.ts';
import { MAX_GENERIC_STATEMENTS } from './driver.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../../../test/support/pg.ts';

interface T {
  items: { id: Generated<number>; name: string; kind: string };
}

const byKind = prepare<{ kind: string }, { id: number; name: string }, T>((db: Kysely<T>) =>
  db.selectFrom('items').select(['id', 'name']).where('kind', '=', param<string>('kind')).orderBy('id'),
);

function byKindUnprepared(db: Kysely<T>, kind: string) {
  return db.selectFrom('items').select(['id', 'name']).where('kind', '=', kind).orderBy('id');
}

function unprepared(db: Kysely<T>, kind: string) {
  return byKindUnprepared(db, kind).execute();
}

/** One pooled connection, so that every query below runs on the same backend until it is replaced. */
async function withItems(use: (database: Database<T>, admin: pg.Client) => Promise<void>): Promise<void> {
  const schema = await freshSchema();
  const database = await openDatabase<T>(schema.config.connectionString, {
    searchPath: schema.schema,
    poolMax: 1,
  });
  const admin = new pg.Client({ connectionString: pgTestUrl() });
  await admin.connect();
  try {
    await sql`create table items (id serial primary key, name text not null, kind text not null)`.execute(
      database.db,
    );
    await database.db
      .insertInto('items')
      .values([
        { name: 'a', kind: 'x' },
        { name: 'b', kind: 'x' },
        { name: 'c', kind: 'y' },
      ])
      .execute();
    await use(database, admin);
  } finally {
    await admin.end();
    await database.close();
    await schema.drop();
  }
}

/** byKind's statement as this connection's backend holds it, and how often it ran there. */
async function preparedHere(db: Kysely<T>) {
  const { sql: text } = byKindUnprepared(db, '').compile();
  const { rows } = await sql<{ runs: number; pid: number }>`
    select (generic_plans + custom_plans)::int as runs, pg_backend_pid() as pid
    from pg_prepared_statements where name = ${statementName(text)}`.execute(db);
  return rows[0];
}

async function backendPid(db: Kysely<T>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  return rows[0]!.pid;
}

describe('named statements on PostgreSQL', skipUnlessPg, () => {
  test('a prepared query is parsed once per connection, then only executed; rows as unprepared', async () => {
    await withItems(async (database) => {
      const { db } = database;
      assert.equal(await preparedHere(db), undefined, 'nothing prepared before the first run');
      for (const kind of ['x', 'y', 'z', 'x']) {
        assert.deepEqual(await byKind.execute(db, { kind }), await unprepared(db, kind));
      }
      const here = await preparedHere(db);
      assert.ok(here, 'the statement is prepared on the connection');
      assert.equal(here.runs, 4, 'one statement executed four times');
      // Inside a transaction it is the same statement on the same connection.
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'd', kind: 'y' }).execute();
        assert.deepEqual(await byKind.execute(trx, { kind: 'y' }), [
          { id: 3, name: 'c' },
          { id: 4, name: 'd' },
        ]);
      });
      assert.equal((await preparedHere(db))?.runs, 5);
    });
  });

  test('a statement first prepared in a transaction that rolls back stays usable', async () => {
    await withItems(async ({ db }) => {
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await byKind.execute(trx, { kind: 'x' });
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await byKind.execute(db, { kind: 'x' }), await unprepared(db, 'x'));
      assert.equal((await preparedHere(db))?.runs, 2);
    });
  });

  test('a replaced connection prepares the statement again', async () => {
    await withItems(async ({ db }, admin) => {
      await byKind.execute(db, { kind: 'x' });
      const before = await preparedHere(db);
      assert.ok(before);
      // The server ends the backend (a restart, an operator, a network failure look the same).
      await admin.query('select pg_terminate_backend($1)', [before.pid]);
      // The pool drops the dead connection, at the latest when a query on it fails.
      let rows: { id: number; name: string }[] | undefined;
      for (let attempt = 0; attempt < 50 && rows === undefined; attempt++) {
        rows = await byKind.execute(db, { kind: 'x' }).catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return undefined;
        });
      }
      assert.deepEqual(rows, await unprepared(db, 'x'));
      const after = await preparedHere(db);
      assert.ok(after, 'prepared on the new connection');
      assert.notEqual(after.pid, before.pid);
      assert.equal(after.runs, 1);
    });
  });

  test('a statement the server forgot (DEALLOCATE ALL) still answers; the connection is replaced', async () => {
    await withItems(async ({ db }) => {
      await byKind.execute(db, { kind: 'x' });
      const pid = await backendPid(db);
      await sql`deallocate all`.execute(db);
      assert.deepEqual(await byKind.execute(db, { kind: 'x' }), await unprepared(db, 'x'));
      // That connection was given back for closing; the next one prepares afresh.
      assert.notEqual(await backendPid(db), pid);
      assert.deepEqual(await byKind.execute(db, { kind: 'y' }), await unprepared(db, 'y'));
      assert.equal((await preparedHere(db))?.runs, 1);
    });
  });

  test('a statement whose result type changed (a migration meanwhile) still answers', async () => {
    await withItems(async ({ db }) => {
      await byKind.execute(db, { kind: 'x' });
      const pid = await backendPid(db);
      await sql`alter table items alter column name type varchar(20)`.execute(db);
      assert.deepEqual(await byKind.execute(db, { kind: 'x' }), await unprepared(db, 'x'));
      assert.notEqual(await backendPid(db), pid);
      assert.deepEqual(await byKind.execute(db, { kind: 'x' }), await unprepared(db, 'x'));
    });
  });

  test('inside a transaction a forgotten statement fails the transaction, not later ones', async () => {
    await withItems(async ({ db }) => {
      await byKind.execute(db, { kind: 'x' });
      await sql`deallocate all`.execute(db);
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await byKind.execute(trx, { kind: 'x' });
        }),
      );
      assert.deepEqual(await byKind.execute(db, { kind: 'x' }), await unprepared(db, 'x'));
      assert.equal((await preparedHere(db))?.runs, 1);
    });
  });
});

/** `text` as a query that asks for a generic plan (ADR 0115). */
const generic = <R>(text: string, parameters: unknown[] = []) =>
  withGenericPlan(CompiledQuery.raw(text, parameters)) as CompiledQuery<R>;

const PLAN_MODE = "select current_setting('plan_cache_mode') as mode, pg_backend_pid() as pid";

describe('statements with one generic plan on PostgreSQL', skipUnlessPg, () => {
  test('run where plans are generic, outside transactions only; other statements keep custom plans', async () => {
    await withItems(async ({ db }) => {
      const [marked] = (await db.executeQuery(generic<{ mode: string; pid: number }>(PLAN_MODE))).rows;
      assert.equal(marked?.mode, 'force_generic_plan');
      const [plain] = (await sql<{ mode: string; pid: number }>`${sql.raw(PLAN_MODE)}`.execute(db)).rows;
      assert.equal(plain?.mode, 'auto');
      assert.notEqual(plain?.pid, marked?.pid, 'a connection of their own');
      // In a transaction a statement runs on the transaction's connection, whatever it asks for.
      await db.transaction().execute(async (trx) => {
        const [inside] = (await trx.executeQuery(generic<{ mode: string; pid: number }>(PLAN_MODE))).rows;
        assert.equal(inside?.mode, 'auto');
        assert.equal(
          inside?.pid,
          (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid,
        );
      });
      // Planned once, generically, then only executed: PostgreSQL's own account of it.
      const byName = 'select id, name from items where kind = $1 order by id';
      for (const kind of ['x', 'y', 'x']) {
        assert.deepEqual(
          (await db.executeQuery(generic(byName, [kind]))).rows,
          await byKindUnprepared(db, kind).execute(),
        );
      }
      const [plans] = (
        await db.executeQuery(
          generic<{ generic_plans: string; custom_plans: string }>(
            'select generic_plans, custom_plans from pg_prepared_statements where statement = $1',
            [byName],
          ),
        )
      ).rows;
      assert.deepEqual(plans, { generic_plans: '3', custom_plans: '0' });
    });
  });

  test(`a connection that prepared ${MAX_GENERIC_STATEMENTS} of them is replaced`, async () => {
    await withItems(async ({ db }) => {
      const pidOf = async (i: number) =>
        (await db.executeQuery(generic<{ pid: number }>(`select pg_backend_pid() as pid, ${i} as i`)))
          .rows[0]!.pid;
      const first = await pidOf(0);
      for (let i = 1; i < MAX_GENERIC_STATEMENTS; i++) assert.equal(await pidOf(i), first);
      // One more distinct statement runs there, and the connection is closed after it.
      assert.equal(await pidOf(MAX_GENERIC_STATEMENTS), first);
      assert.notEqual(await pidOf(0), first);
    });
  });

  test(
    'answered while every connection of the main pool is held (never checks one out)',
    { timeout: 10_000 },
    async (t) => {
      await withItems(async ({ db }) => {
        // The pool's one connection, held by an open transaction until the statement answered
        // (or the test timed out: then it is let go, so that a failing run ends).
        const held = Promise.withResolvers<void>();
        t.signal.addEventListener('abort', () => held.resolve());
        const inside = Promise.withResolvers<void>();
        const transaction = db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          inside.resolve();
          await held.promise;
        });
        await inside.promise;
        try {
          const [row] = (await db.executeQuery(generic<{ mode: string }>(PLAN_MODE))).rows;
          assert.equal(row?.mode, 'force_generic_plan');
        } finally {
          held.resolve();
          await transaction;
        }
      });
    },
  );

  test('a connection whose backend was ended is replaced', async () => {
    await withItems(async ({ db }, admin) => {
      const [before] = (await db.executeQuery(generic<{ pid: number }>(PLAN_MODE))).rows;
      await admin.query('select pg_terminate_backend($1)', [before!.pid]);
      let after: { pid: number; mode: string } | undefined;
      for (let attempt = 0; attempt < 50 && after === undefined; attempt++) {
        after = await db
          .executeQuery(generic<{ pid: number; mode: string }>(PLAN_MODE))
          .then(({ rows }) => rows[0])
          .catch(async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            return undefined;
          });
      }
      assert.ok(after, 'answered again');
      assert.notEqual(after.pid, before!.pid);
      assert.equal(after.mode, 'force_generic_plan');
    });
  });

  test('a statement the server forgot still answers; the connection is replaced', async () => {
    await withItems(async ({ db }) => {
      const byName = 'select id, name from items where kind = $1 order by id';
      await db.executeQuery(generic(byName, ['x']));
      const [before] = (await db.executeQuery(generic<{ pid: number }>(PLAN_MODE))).rows;
      await db.executeQuery(generic('deallocate all'));
      assert.deepEqual((await db.executeQuery(generic(byName, ['x']))).rows, await unprepared(db, 'x'));
      const [after] = (await db.executeQuery(generic<{ pid: number; mode: string }>(PLAN_MODE))).rows;
      assert.notEqual(after?.pid, before?.pid);
      assert.equal(after?.mode, 'force_generic_plan');
    });
  });
});
