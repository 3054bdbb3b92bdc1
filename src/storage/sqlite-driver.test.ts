import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { sql, type Generated } from 'kysely';
import { openDatabase } from './open.ts';
import { Mutex } from './sqlite-driver.ts';
import { openTempSqlite } from '../../test/kit/storage/targets.ts';

interface T {
  items: { id: Generated<number>; name: string; flag: number | null };
}

async function withItems() {
  const database = await openTempSqlite<T>();
  await sql`create table items (id integer primary key, name text not null unique, flag integer)`.execute(
    database.db,
  );
  return database;
}

test('mutex hands out the lock in arrival order, one holder at a time', async () => {
  const mutex = new Mutex();
  const log: string[] = [];
  const worker = async (name: string) => {
    const release = await mutex.lock();
    log.push(`${name}+`);
    await new Promise((r) => setImmediate(r));
    log.push(`${name}-`);
    release();
  };
  await Promise.all([worker('a'), worker('b'), worker('c')]);
  assert.deepEqual(log, ['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
});

test('mutex is free only while nobody holds or waits for it (readNow relies on it)', async () => {
  const mutex = new Mutex();
  assert.equal(mutex.free, true);
  const first = mutex.lock();
  const second = mutex.lock();
  assert.equal(mutex.free, false);
  const releaseFirst = await first;
  releaseFirst();
  releaseFirst(); // a second release changes nothing
  assert.equal(mutex.free, false);
  (await second)();
  assert.equal(mutex.free, true);
});

test('pragmas: WAL, foreign keys, no busy timeout (the driver waits asynchronously)', async () => {
  const database = await openTempSqlite();
  const pragma = async (name: string) =>
    Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];
  assert.equal(await pragma('journal_mode'), 'wal');
  assert.equal(await pragma('foreign_keys'), 1);
  assert.equal(await pragma('busy_timeout'), 0);
  // ADR 0047: the file is memory-mapped and the page cache is far above SQLite's 2 MiB default.
  assert.equal(await pragma('mmap_size'), 256 * 1024 * 1024);
  assert.equal(await pragma('cache_size'), -64 * 1024);
  await database.dispose();
});

test('queries, returning, booleans and plain-object rows', async () => {
  const database = await withItems();
  const { db } = database;
  const inserted = await db
    .insertInto('items')
    .values({ name: 'a', flag: true as unknown as number })
    .returning(['id', 'flag'])
    .executeTakeFirstOrThrow();
  assert.deepEqual(inserted, { id: 1, flag: 1 });
  const result = await db.insertInto('items').values({ name: 'b', flag: null }).executeTakeFirst();
  assert.equal(result.insertId, 2n);
  const rows = await db.selectFrom('items').selectAll().orderBy('id').execute();
  assert.deepEqual(rows, [
    { id: 1, name: 'a', flag: 1 },
    { id: 2, name: 'b', flag: null },
  ]);
  assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
  const updated = await db.updateTable('items').set({ flag: 7 }).executeTakeFirst();
  assert.equal(updated.numUpdatedRows, 2n);
  await database.dispose();
});

test('a failed transaction rolls back; concurrent transactions do not interleave', async () => {
  const database = await withItems();
  const { db } = database;
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'x', flag: null }).execute();
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal((await db.selectFrom('items').selectAll().execute()).length, 0);
  // Read-increment-write in 20 concurrent transactions: serialised by the connection mutex.
  await db.insertInto('items').values({ name: 'counter', flag: 0 }).execute();
  await Promise.all(
    Array.from({ length: 20 }, () =>
      db.transaction().execute(async (trx) => {
        const { flag } = await trx
          .selectFrom('items')
          .select('flag')
          .where('name', '=', 'counter')
          .executeTakeFirstOrThrow();
        await new Promise((r) => setImmediate(r));
        await trx
          .updateTable('items')
          .set({ flag: (flag ?? 0) + 1 })
          .where('name', '=', 'counter')
          .execute();
      }),
    ),
  );
  const { flag } = await db
    .selectFrom('items')
    .select('flag')
    .where('name', '=', 'counter')
    .executeTakeFirstOrThrow();
  assert.equal(flag, 20);
  await database.dispose();
});

test('savepoints roll back part of a transaction', async () => {
  const database = await withItems();
  const trx = await database.db.startTransaction().execute();
  await trx.insertInto('items').values({ name: 'kept', flag: null }).execute();
  const sp = await trx.savepoint('inner').execute();
  await sp.insertInto('items').values({ name: 'dropped', flag: null }).execute();
  await sp.rollbackToSavepoint('inner').execute();
  await trx.commit().execute();
  assert.deepEqual(
    (await database.db.selectFrom('items').select('name').execute()).map((r) => r.name),
    ['kept'],
  );
  await database.dispose();
});

test('a second process-like connection waiting on BEGIN IMMEDIATE gets BusyError after busy_timeout', async () => {
  const first = await withItems();
  const path = (
    await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(first.db)
  ).rows[0]?.file;
  assert.ok(path);
  const second = await openDatabase<T>(path, { busyTimeoutMs: 50 });
  await first.db.transaction().execute(async (trx) => {
    await trx.insertInto('items').values({ name: 'held', flag: null }).execute();
    await assert.rejects(
      second.db.transaction().execute(async () => undefined),
      { name: 'BusyError' },
    );
  });
  await second.close();
  await first.dispose();
});

test('a writer waiting for another process’s lock lets this process’s reads and timers run', async () => {
  const first = await withItems();
  const path = (
    await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(first.db)
  ).rows[0]?.file;
  assert.ok(path);
  // Another process's writer: a plain connection holding BEGIN IMMEDIATE.
  const other = new DatabaseSync(path);
  other.exec('begin immediate');
  other.exec(`insert into items (name) values ('other')`);
  const second = await openDatabase<T>(path, { busyTimeoutMs: 10_000 });
  const order: string[] = [];
  const write = second.db
    .transaction()
    .execute((trx) => trx.insertInto('items').values({ name: 'mine', flag: null }).execute())
    .then(() => order.push('write'));
  // With a blocking busy_timeout neither of these could run before the lock is released.
  await new Promise((resolve) => setTimeout(resolve, 20));
  order.push('timer');
  const names = await second.db.selectFrom('items').select('name').execute();
  order.push('read');
  assert.deepEqual(names, []); // the other writer has not committed
  other.exec('commit');
  other.close();
  await write;
  assert.deepEqual(order, ['timer', 'read', 'write']);
  const after = await second.db.selectFrom('items').select('name').orderBy('name').execute();
  assert.deepEqual(
    after.map((r) => r.name),
    ['mine', 'other'],
  );
  await second.close();
  await first.dispose();
});

test('sqlite: URL forms and a bad path', async () => {
  const memory = await openDatabase(':memory:');
  assert.equal(memory.dialect, 'sqlite');
  assert.equal(memory.capabilities.fullText, 'fts5');
  await memory.close();
  // A directory that cannot exist: its parent is a regular file.
  const file = join(mkdtempSync(join(tmpdir(), 'shelfmark-file-')), 'plain');
  writeFileSync(file, '');
  await assert.rejects(openDatabase(`sqlite:${file}/sub/here.db`), { code: 'ENOTDIR' });
  rmSync(dirname(file), { recursive: true });
});
