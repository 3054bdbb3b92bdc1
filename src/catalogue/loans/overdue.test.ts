// Overdue loans block borrowing (ADR 0061), on every engine: the loan store's borrow refuses
// inside its transaction when the borrower has a loan overdue by more than the configured days.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { createLoanStore } from './store.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2024-06-01T12:00:00.000Z');

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`overdue loans block borrowing on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let n = 0;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
    });
    after(() => database?.dispose());

    /** A person with one open loan due `daysAgo` days before NOW, and a free work to borrow. */
    async function setup(daysAgo: number) {
      const person = await stores.persons.create({ vorname: 'Leser', nachname: `Nr ${++n}` });
      const old = await stores.works.create({ titel: `Alt ${n}`, exemplare: 1 });
      const fresh = await stores.works.create({ titel: `Neu ${n}`, exemplare: 1 });
      const due = new Date(NOW.getTime() - daysAgo * DAY);
      const { id } = await database.db
        .insertInto('loans')
        .values({
          person_id: person.id,
          work_id: old.id,
          borrowed_at: new Date(due.getTime() - 28 * DAY).toISOString(),
          due_at: due.toISOString(),
          returned_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { person: person.id, work: fresh.id, loan: id };
    }

    const loansAt = (overdueBlockDays?: number) =>
      createLoanStore(database.db, {
        now: () => NOW,
        ...(overdueBlockDays !== undefined && { overdueBlockDays }),
      });

    test('a loan overdue by more than 14 days (the default) refuses the borrow; nothing is lent', async () => {
      const { person, work } = await setup(15);
      assert.deepEqual(await loansAt().borrow(person, { id: work }), { ok: false, reason: 'overdue-loans' });
      const open = await database.db.selectFrom('loans').select('id').where('work_id', '=', work).execute();
      assert.equal(open.length, 0);
    });

    test('14 days or less overdue still borrows; the days are configurable (0: any overdue loan)', async () => {
      const { person, work } = await setup(13);
      const lent = await loansAt().borrow(person, { id: work });
      assert.ok(lent.ok, JSON.stringify(lent));
      const other = await setup(1);
      assert.deepEqual(await loansAt(0).borrow(other.person, { id: other.work }), {
        ok: false,
        reason: 'overdue-loans',
      });
      const notYetDue = await setup(-1);
      assert.ok((await loansAt(0).borrow(notYetDue.person, { id: notYetDue.work })).ok);
    });

    test('once the overdue loan is returned the person borrows again', async () => {
      const { person, work, loan } = await setup(30);
      const store = loansAt();
      assert.deepEqual(await store.borrow(person, { id: work }), { ok: false, reason: 'overdue-loans' });
      assert.ok(await store.returnLoan(person, loan));
      assert.ok((await store.borrow(person, { id: work })).ok);
    });
  });
}
