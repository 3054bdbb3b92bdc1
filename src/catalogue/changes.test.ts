import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { catalogueTestTargets } from '../../test/kit/catalogue/targets.ts';
import { changeCount, changeCounter } from './changes.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`change counter (${target.dialect})`, { skip: target.skip }, () => {
    test('changeCounter reads what changeCount reads, and sees a commit of another connection', async () => {
      const database = await target.open();
      try {
        const read = changeCounter(database);
        const before = await read();
        assert.equal(before, await changeCount(database.db));
        // Another connection (another worker or process) commits a write.
        if (database.dialect === 'sqlite') {
          const [file] = (await sql<{ file: string }>`pragma database_list`.execute(database.db)).rows;
          const other = new DatabaseSync(file!.file);
          other.exec('update change_counter set n = n + 1 where id = 1');
          other.close();
        } else {
          await sql`update change_counter set n = n + 1 where id = 1`.execute(database.db);
        }
        const after = await read();
        assert.notEqual(after, before);
        assert.equal(after, await changeCount(database.db));
      } finally {
        await database.dispose();
      }
    });
  });
}

describe('change counter on SQLite without the queue (ADR 0066)', () => {
  const [sqlite] = catalogueTestTargets(undefined);

  test('answers at once while the connection is free', async () => {
    const database = await sqlite!.open();
    try {
      const value = changeCounter(database)();
      assert.equal(typeof value, 'string');
      assert.equal(value, await changeCount(database.db));
    } finally {
      await database.dispose();
    }
  });

  test('never reads a write transaction of its own connection before it commits', async () => {
    const database = await sqlite!.open();
    try {
      const read = changeCounter(database);
      const before = await read();
      let during: string | Promise<string> | undefined;
      await database.db.transaction().execute(async (trx) => {
        await sql`update change_counter set n = n + 1 where id = 1`.execute(trx);
        // The transaction holds the one connection: the read waits its turn (a promise) rather
        // than seeing the uncommitted value, which a rollback could still take back.
        during = read();
        assert.ok(during instanceof Promise, 'a read during the transaction must wait for it');
      });
      const committed = await changeCount(database.db);
      assert.notEqual(committed, before);
      assert.equal(await during, committed);
      assert.equal(read(), committed);
    } finally {
      await database.dispose();
    }
  });
});
