import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Generated, type Kysely } from 'kysely';
import { param, prepare } from './prepared.ts';
import { openTempSqlite } from '../../test/kit/storage/targets.ts';

interface T {
  items: { id: Generated<number>; name: string; kind: string };
}

async function withItems() {
  const database = await openTempSqlite<T>();
  await sql`create table items (id integer primary key, name text not null, kind text not null)`.execute(
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
  return database;
}

test('a prepared query substitutes its placeholders and keeps its constants', async () => {
  const database = await withItems();
  let builds = 0;
  const byKind = prepare<{ kind: string; above: number }, { name: string }, T>((db: Kysely<T>) => {
    builds += 1;
    return db
      .selectFrom('items')
      .select('name')
      .where('kind', '=', param<string>('kind'))
      .where('id', '>', param<number>('above'))
      .where('name', '!=', 'zzz') // a constant parameter stays as built
      .orderBy('id');
  });
  assert.deepEqual(await byKind.execute(database.db, { kind: 'x', above: 0 }), [
    { name: 'a' },
    { name: 'b' },
  ]);
  assert.deepEqual(await byKind.execute(database.db, { kind: 'x', above: 1 }), [{ name: 'b' }]);
  assert.deepEqual(await byKind.executeTakeFirst(database.db, { kind: 'y', above: 0 }), { name: 'c' });
  assert.equal(await byKind.executeTakeFirst(database.db, { kind: 'z', above: 0 }), undefined);
  // Inside a transaction it runs on the transaction's connection, with the same compiled form.
  await database.db.transaction().execute(async (trx) => {
    await trx.insertInto('items').values({ name: 'd', kind: 'y' }).execute();
    assert.deepEqual(await byKind.execute(trx, { kind: 'y', above: 3 }), [{ name: 'd' }]);
  });
  assert.equal(builds, 1, 'built and compiled once');
  await database.dispose();
});

test('a missing value is an error, never a NULL or a placeholder object bound', async () => {
  const database = await withItems();
  const byName = prepare<{ name: string }, { id: number }, T>((db: Kysely<T>) =>
    db.selectFrom('items').select('id').where('name', '=', param<string>('name')),
  );
  await assert.rejects(byName.execute(database.db, {} as { name: string }), /no value for parameter "name"/);
  await database.dispose();
});

test('a Kysely instance with plugins is refused (their rewrites would be shared)', async () => {
  const database = await withItems();
  const plugged = database.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => args.result,
  });
  const all = prepare<Record<string, never>, { id: number }, T>((db: Kysely<T>) =>
    db.selectFrom('items').select('id'),
  );
  await assert.rejects(all.execute(plugged, {}), /plugins/);
  await database.dispose();
});

/** Counts the statements `db` sends the usual way (Kysely's executor: the queue, retries, mapping). */
function countQueued<DB>(db: Kysely<DB>): { readonly count: number } {
  const counter = { count: 0 };
  const executeQuery = db.executeQuery.bind(db);
  db.executeQuery = ((query: Parameters<typeof executeQuery>[0]) => {
    counter.count += 1;
    return executeQuery(query);
  }) as typeof db.executeQuery;
  return counter;
}

test('SQLite: a prepared read runs at once while the connection is free, never past a transaction (ADR 0118)', async () => {
  const database = await withItems();
  const queued = countQueued(database.db);
  const byKind = prepare<{ kind: string }, { name: string }, T>((db: Kysely<T>) =>
    db.selectFrom('items').select('name').where('kind', '=', param<string>('kind')).orderBy('id'),
  );
  assert.deepEqual(await byKind.execute(database.db, { kind: 'y' }), [{ name: 'c' }]);
  assert.equal(queued.count, 0, 'the free connection answered without the queue');

  // A transaction holds the connection: the read waits its turn and never sees its rows.
  let readDuring: Promise<{ name: string }[]> | undefined;
  await assert.rejects(
    database.db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'd', kind: 'y' }).execute();
      readDuring = byKind.execute(database.db, { kind: 'y' });
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.deepEqual(await readDuring, [{ name: 'c' }], 'not the rolled-back row');
  assert.equal(queued.count, 1, 'the read in the transaction’s time went the usual way');
  await database.dispose();
});

test('SQLite: a prepared write always goes the usual way (retries, error mapping)', async () => {
  const database = await withItems();
  const queued = countQueued(database.db);
  const rename = prepare<{ id: number; name: string }, never, T>((db: Kysely<T>) =>
    db
      .updateTable('items')
      .set({ name: param<string>('name') })
      .where('id', '=', param<number>('id')),
  );
  await rename.execute(database.db, { id: 1, name: 'A' });
  assert.equal(queued.count, 1);
  const names = await database.db.selectFrom('items').select('name').orderBy('id').execute();
  assert.deepEqual(names, [{ name: 'A' }, { name: 'b' }, { name: 'c' }]);
  await database.dispose();
});
