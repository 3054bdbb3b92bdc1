import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { catalogueTestTargets, type TestDatabase } from '../../test/kit/catalogue/targets.ts';
import type { ChangeBatch } from '../http/cache/index.ts';
import { bumpChangeCounter, changeFeed, lockShowing, lockSubjects, subject } from './changes.ts';
import { createStores } from './stores.ts';
import type { DB } from './tables.ts';

/** Runs `sql` on another connection (another worker or process) and commits it. */
async function elsewhere(database: TestDatabase<DB>, text: string): Promise<void> {
  if (database.dialect === 'sqlite') {
    const [file] = (await sql<{ file: string }>`pragma database_list`.execute(database.db)).rows;
    const other = new DatabaseSync(file!.file);
    other.exec(text);
    other.close();
  } else {
    await sql.raw(text).execute(database.db);
  }
}

const postgresTarget = catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL).find(
  (target) => target.dialect === 'postgres',
)!;

const sorted = (batch: ChangeBatch) => (batch === 'everything' ? batch : [...batch].sort());

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`change feed (${target.dialect})`, { skip: target.skip }, () => {
    test('names what another connection’s commit changed, and nothing after that', async () => {
      const database = await target.open();
      try {
        const stores = createStores(database.db, { capabilities: database.capabilities });
        const goethe = await stores.persons.create({ slug: 'goethe', vorname: 'J. W.', nachname: 'Goethe' });
        const faust = await stores.works.create({
          slug: 'faust',
          titel: 'Faust',
          exemplare: 1,
          personIds: [goethe.id],
        });
        const read = changeFeed(database);
        assert.equal(await read(), 'everything', 'the first read cannot know what the cache held');
        assert.deepEqual(await read(), []);
        await elsewhere(database, `update works set titel = 'Faust I' where id = ${faust.id}`);
        assert.deepEqual(sorted(await read()), [
          `work-name:${faust.id}`,
          'work-names',
          `work:${faust.id}`,
          'works',
        ]);
        assert.deepEqual(await read(), []);
        await elsewhere(database, `update person_work set position = position where work_id = ${faust.id}`);
        assert.deepEqual(sorted(await read()), [
          'person:' + goethe.id,
          'persons',
          `work:${faust.id}`,
          'works',
        ]);
        await bumpChangeCounter(database.db);
        assert.equal(
          await read(),
          'everything',
          'the counter (tables without finer tracking) drops everything',
        );
      } finally {
        await database.dispose();
      }
    });
  });
}

describe('change feed on SQLite without the queue (ADR 0066)', () => {
  const [sqlite] = catalogueTestTargets(undefined);

  test('answers at once while the connection is free', async () => {
    const database = await sqlite!.open();
    try {
      const read = changeFeed(database);
      assert.equal(read(), 'everything');
      assert.deepEqual(read(), []);
    } finally {
      await database.dispose();
    }
  });

  test('never reads a write transaction of its own connection before it commits', async () => {
    const database = await sqlite!.open();
    try {
      const stores = createStores(database.db, { capabilities: database.capabilities });
      const goethe = await stores.persons.create({ slug: 'goethe', vorname: 'J. W.', nachname: 'Goethe' });
      const read = changeFeed(database);
      assert.equal(read(), 'everything');
      let during: ChangeBatch | Promise<ChangeBatch> | undefined;
      await database.db.transaction().execute(async (trx) => {
        await sql`update persons set vorname = 'Johann' where id = ${goethe.id}`.execute(trx);
        // The transaction holds the one connection: the read waits its turn (a promise) rather
        // than seeing the uncommitted change, which a rollback could still take back.
        during = read();
        assert.ok(during instanceof Promise, 'a read during the transaction must wait for it');
      });
      assert.deepEqual(sorted(await during!), [`person-name:${goethe.id}`, `person:${goethe.id}`, 'persons']);
      assert.deepEqual(read(), []);
    } finally {
      await database.dispose();
    }
  });
});

describe('change feed on SQLite with a side connection', () => {
  const [sqlite] = catalogueTestTargets(undefined);

  test('reads at once during a write transaction, without its rows; after the commit, with them', async () => {
    const database = await sqlite!.open();
    const [file] = (await sql<{ file: string }>`pragma database_list`.execute(database.db)).rows;
    const side = new DatabaseSync(file!.file, { readOnly: true });
    try {
      const stores = createStores(database.db, { capabilities: database.capabilities });
      const goethe = await stores.persons.create({ slug: 'goethe', vorname: 'J. W.', nachname: 'Goethe' });
      const read = changeFeed(database, side);
      assert.equal(read(), 'everything');
      await database.db.transaction().execute(async (trx) => {
        await sql`update persons set vorname = 'Johann' where id = ${goethe.id}`.execute(trx);
        // The main connection is taken: the side one answers at once, and not with the
        // uncommitted change (a rollback could still take it back).
        assert.deepEqual(read(), []);
      });
      assert.deepEqual(sorted(read() as ChangeBatch), [
        `person-name:${goethe.id}`,
        `person:${goethe.id}`,
        'persons',
      ]);
    } finally {
      side.close();
      await database.dispose();
    }
  });
});

const postgres = catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL).find(
  (t) => t.dialect === 'postgres',
)!;

describe('change feed on PostgreSQL: commits out of order', { skip: postgres.skip }, () => {
  test('a transaction that began first and commits last is still reported', async () => {
    const database = await postgres.open();
    try {
      const stores = createStores(database.db, { capabilities: database.capabilities });
      const a = await stores.persons.create({ slug: 'a', vorname: 'A', nachname: 'A' });
      const b = await stores.persons.create({ slug: 'b', vorname: 'B', nachname: 'B' });
      const read = changeFeed(database);
      await read();
      let commitFirst!: () => void;
      const gate = new Promise<void>((resolve) => (commitFirst = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      // The earlier transaction (lower id) writes a and waits; b's commits and is read meanwhile.
      const early = database.db.transaction().execute(async (trx: Kysely<DB>) => {
        await sql`update persons set vorname = 'A2' where id = ${a.id}`.execute(trx);
        written();
        await gate;
      });
      await wrote;
      await sql`update persons set vorname = 'B2' where id = ${b.id}`.execute(database.db);
      assert.deepEqual(sorted(await read()), [`person-name:${b.id}`, `person:${b.id}`, 'persons']);
      commitFirst();
      await early;
      assert.deepEqual(sorted(await read()), [`person-name:${a.id}`, `person:${a.id}`, 'persons']);
      assert.deepEqual(await read(), []);
    } finally {
      await database.dispose();
    }
  });
});

describe('change feed on PostgreSQL: its own connection (ADR 0105)', { skip: postgres.skip }, () => {
  test('answers while write transactions hold every pooled connection', { timeout: 30_000 }, async () => {
    const database = await postgres.open(); // a pool of 5 (test/kit/storage/targets.ts)
    try {
      const read = changeFeed(database);
      await read();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = 0;
      let allHeld!: () => void;
      const held = new Promise<void>((resolve) => (allHeld = resolve));
      const writers = Array.from({ length: 5 }, () =>
        database.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          if ((holding += 1) === 5) allHeld();
          await released;
        }),
      );
      await held;
      // Through the pool this read would wait for a writer to finish, and they wait for it.
      const during = await read();
      release();
      await Promise.all(writers);
      assert.deepEqual(during, []);
    } finally {
      await database.dispose();
    }
  });
});

describe('lockShowing (postgres)', { skip: postgresTarget.skip }, () => {
  /** The advisory locks this transaction's backend holds, as sorted keys. */
  const held = async (trx: Kysely<DB>) =>
    (
      await sql<{ key: string }>`select classid::text || ':' || objid::text as key from pg_locks
        where locktype = 'advisory' and pid = pg_backend_pid() and granted`.execute(trx)
    ).rows
      .map((r) => r.key)
      .sort();

  test('takes the locks of the row, of what shows it and of `also`, in one statement', async () => {
    const database = await postgresTarget.open();
    try {
      const stores = createStores(database.db, { capabilities: database.capabilities });
      const goethe = await stores.persons.create({ slug: 'goethe', vorname: 'J. W.', nachname: 'Goethe' });
      const schiller = await stores.persons.create({ slug: 'schiller', vorname: 'F.', nachname: 'Schiller' });
      const xenien = await stores.works.create({
        slug: 'xenien',
        titel: 'Xenien',
        exemplare: 1,
        personIds: [goethe.id, schiller.id],
      });
      const [copy] = await database.db
        .selectFrom('copies')
        .select('id')
        .where('work_id', '=', xenien.id)
        .execute();
      const cases: [Parameters<typeof lockShowing>[1], number, string[]][] = [
        [
          'works',
          xenien.id,
          [subject.work(xenien.id), subject.person(goethe.id), subject.person(schiller.id)],
        ],
        ['persons', goethe.id, [subject.person(goethe.id), subject.work(xenien.id)]],
        [
          'copies',
          copy!.id,
          [subject.work(xenien.id), subject.person(goethe.id), subject.person(schiller.id)],
        ],
      ];
      for (const [table, id, expected] of cases) {
        const also = ['accounts:staff'];
        const byName = await database.db.transaction().execute(async (trx) => {
          await lockSubjects(trx, [...expected, ...also]);
          return held(trx);
        });
        const showing = await database.db.transaction().execute(async (trx) => {
          await lockShowing(trx, table, id, also);
          return held(trx);
        });
        // The catalogue's shared lock and one per subject.
        assert.equal(byName.length, expected.length + also.length + 1, table);
        assert.deepEqual(showing, byName, table);
      }
    } finally {
      await database.dispose();
    }
  });
});
