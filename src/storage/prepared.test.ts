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
