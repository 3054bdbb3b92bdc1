// Error mapping on every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import {
  BusyError,
  CheckError,
  ConflictError,
  ForeignKeyError,
  isTransactionConflict,
  mapDatabaseError,
  UnavailableError,
} from './errors.ts';
import { testTargets } from '../../test/kit/storage/targets.ts';

interface T {
  parent: { id: number; name: string };
  child: { id: number; parent_id: number; n: number };
}

async function schema(db: Kysely<T>) {
  await sql`create table parent (id integer primary key, name text not null unique)`.execute(db);
  await sql`create table child (id integer primary key, parent_id integer not null references parent (id), n integer not null check (n >= 0))`.execute(
    db,
  );
  await db.insertInto('parent').values({ id: 1, name: 'a' }).execute();
}

for (const target of testTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`error mapping on ${target.dialect}`, { skip: target.skip }, () => {
    test('unique, foreign key, check and not-null violations become typed errors', async () => {
      const database = await target.open<T>();
      try {
        await schema(database.db);
        const { db } = database;
        await assert.rejects(db.insertInto('parent').values({ id: 2, name: 'a' }).execute(), ConflictError);
        await assert.rejects(db.insertInto('parent').values({ id: 1, name: 'b' }).execute(), ConflictError);
        await assert.rejects(
          db.insertInto('child').values({ id: 1, parent_id: 99, n: 1 }).execute(),
          ForeignKeyError,
        );
        await assert.rejects(
          db.insertInto('child').values({ id: 1, parent_id: 1, n: -1 }).execute(),
          CheckError,
        );
        await assert.rejects(sql`insert into parent (id, name) values (3, null)`.execute(db), CheckError);
        // Inside a transaction, too, and the transaction is rolled back.
        await assert.rejects(
          db.transaction().execute(async (trx) => {
            await trx.insertInto('parent').values({ id: 5, name: 'e' }).execute();
            await trx.insertInto('parent').values({ id: 6, name: 'e' }).execute();
          }),
          (error: unknown) => error instanceof ConflictError && error.cause !== undefined,
        );
        assert.equal(
          await db.selectFrom('parent').select('id').where('id', '=', 5).executeTakeFirst(),
          undefined,
        );
        await assert.rejects(
          sql`select * from no_such_table`.execute(db),
          (e: unknown) => !(e instanceof ConflictError),
        );
      } finally {
        await database.dispose();
      }
    });
  });
}

test('engine codes map without a database', () => {
  assert.ok(
    mapDatabaseError({ code: 'ERR_SQLITE_ERROR', errcode: 5, message: 'database is locked' }) instanceof
      BusyError,
  );
  assert.ok(
    mapDatabaseError({ code: 'ERR_SQLITE_ERROR', errcode: 517, message: 'busy snapshot' }) instanceof
      BusyError,
  );
  assert.ok(mapDatabaseError({ code: '40P01', message: 'deadlock' }) instanceof BusyError);
  assert.ok(mapDatabaseError({ code: '40001', message: 'serialization' }) instanceof BusyError);
  // Only a deadlock or serialisation failure is worth running the transaction again.
  assert.ok(isTransactionConflict(mapDatabaseError({ code: '40P01', message: 'deadlock' })));
  assert.ok(isTransactionConflict(mapDatabaseError({ code: '40001', message: 'serialization' })));
  assert.ok(!isTransactionConflict(mapDatabaseError({ code: '55P03', message: 'lock not available' })));
  assert.ok(
    !isTransactionConflict(mapDatabaseError({ code: 'ERR_SQLITE_ERROR', errcode: 5, message: 'locked' })),
  );
  assert.ok(!isTransactionConflict({ code: '40P01' }));
  const conflict = mapDatabaseError({ code: '23505', message: 'dup', constraint: 'persons_slug_key' });
  assert.ok(conflict instanceof ConflictError);
  assert.equal(conflict.constraint, 'persons_slug_key');
  const other = new Error('other');
  assert.equal(mapDatabaseError(other), other);
  assert.equal(mapDatabaseError('text'), 'text');
});

test('an unreachable, refusing or read-only database maps to UnavailableError', () => {
  const unavailable = [
    { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
    { code: 'ECONNRESET', message: 'read ECONNRESET' },
    { code: '57P01', message: 'terminating connection due to administrator command' },
    { code: '57P03', message: 'the database system is shutting down' },
    { code: '53300', message: 'sorry, too many clients already' },
    { code: '08006', message: 'connection failure' },
    { message: 'Connection terminated unexpectedly' },
    { message: 'Client has encountered a connection error and is not queryable' },
    { message: 'timeout exceeded when trying to connect' },
    { code: 'ERR_SQLITE_ERROR', errcode: 8, message: 'attempt to write a readonly database' },
    { code: 'ERR_SQLITE_ERROR', errcode: 1032, message: 'readonly dbmoved' },
    { code: 'ERR_SQLITE_ERROR', errcode: 13, message: 'database or disk is full' },
  ];
  for (const error of unavailable) {
    const mapped = mapDatabaseError(error);
    assert.ok(mapped instanceof UnavailableError, error.message);
    assert.equal(mapped.retryAfterSeconds, 5);
    assert.equal(mapped.cause, error);
  }
  assert.equal((mapDatabaseError({ code: '40P01', message: 'deadlock' }) as BusyError).retryAfterSeconds, 1);
  // Not an outage: a syntax error, a missing table, an unknown socket error.
  for (const error of [
    { code: '42601', message: 'syntax error' },
    { code: 'ERR_SQLITE_ERROR', errcode: 1, message: 'no such table: x' },
    { code: 'ENOENT', message: 'no such file' },
  ]) {
    assert.equal(mapDatabaseError(error), error);
  }
});
