import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { NodeSqliteConnection } from './sqlite-connection.ts';

const once = <T>(attempt: () => T) => Promise.resolve(attempt());

/** A test with a connection to a new database file (and the file's path), closed and removed after. */
function withConnection(run: (connection: NodeSqliteConnection, path: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelfmark-connection-'));
    const path = join(dir, 'db.sqlite');
    const connection = new NodeSqliteConnection(path, once);
    try {
      await run(connection, path);
    } finally {
      connection.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const rowsOf = async (connection: NodeSqliteConnection, text: string) =>
  (await connection.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text))).rows;

test(
  'rows are plain objects keyed by column name, a name given twice keeps its last value',
  withConnection(async (connection) => {
    await rowsOf(connection, 'create table t (a integer, b text)');
    await rowsOf(connection, "insert into t values (1, 'x'), (2, 'y')");
    const rows = await rowsOf(connection, 'select a, b, a as b from t order by a');
    assert.deepStrictEqual(rows, [
      { a: 1, b: 1 },
      { a: 2, b: 2 },
    ]);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    const write = await connection.executeQuery(CompiledQuery.raw("update t set b = 'z' where a = 1"));
    assert.deepEqual(write.rows, []);
    assert.equal(write.numAffectedRows, 1n);
  }),
);

test(
  'a cached select * pairs values with the right columns after another process altered the table',
  withConnection(async (connection, path) => {
    await rowsOf(connection, 'create table t (a integer, b text)');
    await rowsOf(connection, "insert into t values (1, 'x')");
    assert.deepStrictEqual(await rowsOf(connection, 'select * from t'), [{ a: 1, b: 'x' }]);
    const other = new DatabaseSync(path);
    other.exec("alter table t add column c text default 'new'");
    other.exec('create table u (b text, a integer)'); // a second schema change, for good measure
    other.close();
    assert.deepStrictEqual(await rowsOf(connection, 'select * from t'), [{ a: 1, b: 'x', c: 'new' }]);
    const streamed = [];
    for await (const part of connection.streamQuery<Record<string, unknown>>(
      CompiledQuery.raw('select * from t'),
    ))
      streamed.push(...part.rows);
    assert.deepStrictEqual(streamed, [{ a: 1, b: 'x', c: 'new' }]);
  }),
);
