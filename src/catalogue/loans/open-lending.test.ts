// A person with open loans or holds is not deleted (ADR 0061), on every engine: the store's
// delete refuses inside its transaction, also when the loan is committed while the delete waits
// for the person’s lock (ADR 0088, before it ADR 0055’s change counter) — a check before the lock would miss it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { lockSubjects, subject } from '../changes.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { PersonHasLendingError } from './open-lending.ts';

const DAY = 24 * 60 * 60 * 1000;

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`a person with open loans or holds on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let workId: number;
    let n = 0;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      workId = (await stores.works.create({ titel: 'Faust', exemplare: 3 })).id;
    });
    after(() => database?.dispose());

    const newPerson = async () =>
      (await stores.persons.create({ vorname: 'Leserin', nachname: `Nr ${++n}` })).id;

    const insertLoan = async (db: Kysely<DB>, personId: number, returned = false) => {
      const at = new Date();
      const { id } = await db
        .insertInto('loans')
        .values({
          person_id: personId,
          work_id: workId,
          borrowed_at: at.toISOString(),
          due_at: new Date(at.getTime() + 28 * DAY).toISOString(),
          returned_at: returned ? at.toISOString() : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    };

    const insertHold = async (personId: number) => {
      const { id } = await database.db
        .insertInto('holds')
        .values({ person_id: personId, work_id: workId, placed_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    };

    const refused = async (personId: number, loans: number, holds: number) => {
      const error = await stores.persons.delete(personId).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof PersonHasLendingError, `refused: ${String(error)}`);
      assert.deepEqual({ loans: error.loans, holds: error.holds }, { loans, holds });
      const still = await stores.persons.byId(personId);
      assert.ok(still && 'found' in still, 'the person is still there');
    };

    test('an open loan refuses the delete; once returned, the person is deleted', async () => {
      const person = await newPerson();
      const loan = await insertLoan(database.db, person);
      await insertLoan(database.db, person, true); // a returned loan counts for nothing
      assert.deepEqual(
        { ...(await stores.persons.openLending(person)), lastChange: null },
        { loans: 1, holds: 0, lastChange: null },
      );
      await refused(person, 1, 0);
      await database.db
        .updateTable('loans')
        .set({ returned_at: new Date().toISOString() })
        .where('id', '=', loan)
        .execute();
      assert.equal(await stores.persons.delete(person), true);
      const gone = await stores.persons.byId(person);
      assert.ok(gone && 'gone' in gone);
    });

    test('an open hold refuses the delete; an ended one does not', async () => {
      const person = await newPerson();
      const hold = await insertHold(person);
      await refused(person, 0, 1);
      await insertLoan(database.db, person);
      await refused(person, 1, 1);
      await database.db
        .updateTable('holds')
        .set({ ended_at: new Date().toISOString(), end_reason: 'cancelled' })
        .where('id', '=', hold)
        .execute();
      await refused(person, 1, 0);
    });

    test('openLending says when it last changed', async () => {
      const person = await newPerson();
      assert.deepEqual(await stores.persons.openLending(person), { loans: 0, holds: 0, lastChange: null });
      await insertHold(person);
      const { lastChange } = await stores.persons.openLending(person);
      assert.ok(lastChange instanceof Date && Date.now() - lastChange.getTime() < 60_000);
    });

    test('a ready hold counts until it runs out, with no write after (ADR 0067)', async () => {
      const copies = await database.db
        .selectFrom('copies')
        .select('id')
        .where('work_id', '=', workId)
        .execute();
      const ready = async (personId: number, copyId: number, expiresAt: Date) => {
        await database.db
          .insertInto('holds')
          .values({
            person_id: personId,
            work_id: workId,
            placed_at: new Date(expiresAt.getTime() - 9 * DAY).toISOString(),
            copy_id: copyId,
            ready_at: new Date(expiresAt.getTime() - 7 * DAY).toISOString(),
            expires_at: expiresAt.toISOString(),
          })
          .execute();
      };
      const [kept, ranOut] = [await newPerson(), await newPerson()];
      const later = new Date(Date.now() + DAY);
      const earlier = new Date(Date.now() - 1000);
      await ready(kept, copies[0]!.id, later);
      await ready(ranOut, copies[1]!.id, earlier);
      const open = await stores.persons.openLending(kept);
      assert.deepEqual(
        [open.holds, open.freshUntil?.getTime()],
        [1, later.getTime()],
        'fresh until it runs out',
      );
      await refused(kept, 0, 1);
      const over = await stores.persons.openLending(ranOut);
      assert.equal(over.holds, 0, 'ran out: nothing open');
      assert.equal(over.lastChange?.getTime(), earlier.getTime(), 'changed when it ran out');
      assert.equal(await stores.persons.delete(ranOut), true);
    });

    test('a loan committed while the delete waits for the person’s lock refuses it', async () => {
      const person = await newPerson();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let lent!: () => void;
      const loanInserted = new Promise<void>((resolve) => (lent = resolve));
      let holder = '';
      // A borrow in flight: it holds the person's subject (ADR 0088) and its loan is not yet committed.
      const borrow = database.db.transaction().execute(async (trx) => {
        await lockSubjects(trx, [subject.person(person)]);
        if (target.dialect === 'postgres')
          holder =
            (await sql<{ x: string }>`select pg_backend_pid()::text as x`.execute(trx)).rows[0]?.x ?? '';
        await insertLoan(trx, person);
        lent();
        await gate;
      });
      await loanInserted;
      const deletion = stores.persons.delete(person).then(
        () => 'deleted',
        (e: unknown) => e,
      );
      await deleteIsWaiting(database.db, holder);
      release();
      await borrow;
      const outcome = await deletion;
      assert.ok(outcome instanceof PersonHasLendingError, `refused: ${String(outcome)}`);
      const still = await stores.persons.byId(person);
      assert.ok(still && 'found' in still);
    });
  });
}

/**
 * Until the delete is queued behind the borrow: on PostgreSQL it waits for an advisory lock the
 * borrow's connection (`holder`, its process id) holds (ADR 0088: the person's subject);
 * SQLite's one connection queues it in-process.
 */
async function deleteIsWaiting(db: Kysely<DB>, holder: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (holder !== '') {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks w
        join pg_locks h on h.locktype = 'advisory' and h.granted and h.pid::text = ${holder}
          and h.classid = w.classid and h.objid = w.objid and h.objsubid = w.objsubid
        where w.locktype = 'advisory' and not w.granted`.execute(db);
      if ((rows[0]?.n ?? 0) > 0) return;
    } else {
      await new Promise((resolve) => setImmediate(resolve));
      if (i > 20) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the delete never waited for the borrow’s lock');
}
