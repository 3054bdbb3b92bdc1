// Circulation rules in the lending transaction (ADR 0084), on SQLite and PostgreSQL: item types'
// loan periods, renewals and "not for loan", the overall and per-type loan limits (also under 20
// concurrent borrows by one member), and due dates moved past closed days.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import type { LoanStore } from '../loans/index.ts';
import { createLoanStore, createRenewalStore, type RenewalStore } from '../loans/index.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`circulation rules on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let loans: LoanStore;
    let renewals: RenewalStore;
    const clock = new Date('2026-12-01T10:00:00.000Z');
    let serial = 0;

    const person = async () =>
      (await stores.persons.create({ vorname: 'Leser', nachname: `Nr ${++serial}` })).id;
    const work = async (exemplare: number) => stores.works.create({ titel: `Werk ${++serial}`, exemplare });
    const setType = (workId: number, nummer: number, type: string) =>
      database.db
        .updateTable('copies')
        .set({ item_type: type })
        .where('work_id', '=', workId)
        .where('nummer', '=', nummer)
        .execute();
    const close = (...days: string[]) =>
      database.db
        .insertInto('closed_days')
        .values(days.map((day) => ({ day, reason: 'Feiertag', created_at: clock.toISOString() })))
        .execute();

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      const options = { capabilities: database.capabilities, now: () => clock, loanLimit: 5 };
      loans = createLoanStore(database.db, options);
      renewals = createRenewalStore(database.db, { ...options, maxRenewals: 2 });
    });
    after(() => database?.dispose());

    test('existing and new copies are books: the default period and renewals', async () => {
      const w = await work(1);
      const type = await database.db
        .selectFrom('copies')
        .select('item_type')
        .where('work_id', '=', w.id)
        .executeTakeFirstOrThrow();
      assert.equal(type.item_type, 'buch');
      await assert.rejects(setType(w.id, 1, 'no-such-type'), /FOREIGN KEY|foreign key/);
      await assert.rejects(
        database.db.deleteFrom('item_types').where('code', '=', 'buch').execute(),
        /FOREIGN KEY|foreign key/,
      );
      const outcome = await loans.borrow(await person(), { id: w.id });
      assert.ok(outcome.ok);
      assert.equal(outcome.loan.dueAt.toISOString(), '2026-12-29T10:00:00.000Z');
    });

    test('a DVD lends for 7 days and renews once', async () => {
      const w = await work(1);
      await setType(w.id, 1, 'dvd');
      const ben = await person();
      const outcome = await loans.borrow(ben, { id: w.id });
      assert.ok(outcome.ok);
      assert.equal(outcome.loan.dueAt.toISOString(), '2026-12-08T10:00:00.000Z');
      const first = await renewals.renew(ben, outcome.loan.id);
      assert.ok(first?.ok);
      assert.equal(first.dueAt.toISOString(), '2026-12-15T10:00:00.000Z');
      const second = await renewals.renew(ben, outcome.loan.id);
      assert.deepEqual(second, { ok: false, reason: 'limit', renewals: 1, allowed: 1 });
    });

    test('reference stock is not lent; a lendable copy of the same work is', async () => {
      const reference = await work(1);
      await setType(reference.id, 1, 'praesenz');
      const anna = await person();
      assert.deepEqual(await loans.borrow(anna, { id: reference.id }), { ok: false, reason: 'not-lendable' });
      const mixed = await work(2);
      await setType(mixed.id, 1, 'praesenz');
      const outcome = await loans.borrow(anna, { id: mixed.id });
      assert.ok(outcome.ok);
      assert.equal(outcome.loan.copy?.nummer, 2);
    });

    test('a due date on closed days moves to the next open day; so does a renewal', async () => {
      await close('2026-12-29', '2026-12-30');
      const w = await work(1);
      const cleo = await person();
      const outcome = await loans.borrow(cleo, { id: w.id });
      assert.ok(outcome.ok);
      assert.equal(outcome.loan.dueAt.toISOString(), '2026-12-31T10:00:00.000Z');
      await close('2027-01-28');
      const renewed = await renewals.renew(cleo, outcome.loan.id);
      assert.ok(renewed?.ok);
      assert.equal(renewed.dueAt.toISOString(), '2027-01-29T10:00:00.000Z');
    });

    test('20 concurrent borrows by one member never exceed the overall limit', async () => {
      const dora = await person();
      const works = await Promise.all(Array.from({ length: 20 }, () => work(1)));
      const outcomes = await Promise.all(works.map((w) => loans.borrow(dora, { id: w.id })));
      assert.equal(outcomes.filter((o) => o.ok).length, 5);
      assert.ok(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.reason === 'loan-limit'));
      assert.equal((await loans.currentLoans(dora)).items.length, 5);
    });

    test("an item type's own limit counts only loans of that type", async () => {
      await database.db.updateTable('item_types').set({ max_loans: 2 }).where('code', '=', 'dvd').execute();
      const emil = await person();
      const dvds = await Promise.all(Array.from({ length: 4 }, () => work(1)));
      for (const w of dvds) await setType(w.id, 1, 'dvd');
      const outcomes = await Promise.all(dvds.map((w) => loans.borrow(emil, { id: w.id })));
      assert.equal(outcomes.filter((o) => o.ok).length, 2);
      const book = await loans.borrow(emil, { id: (await work(1)).id });
      assert.ok(book.ok, 'a book is still allowed');
    });

    test('a refused borrow leaves the hold that kept a copy open', async () => {
      const w = await work(1);
      const first = await person();
      const lent = await loans.borrow(first, { id: w.id });
      assert.ok(lent.ok);
      const fay = await person();
      const placed = await stores.holds.place(fay, { id: w.id });
      assert.ok(placed.ok);
      await loans.returnLoan(first, lent.loan.id);
      // Fay reaches her limit meanwhile; the copy kept for her stays kept.
      for (let i = 0; i < 5; i++) assert.ok((await loans.borrow(fay, { id: (await work(1)).id })).ok);
      assert.deepEqual(await loans.borrow(fay, { id: w.id }), { ok: false, reason: 'loan-limit' });
      const hold = await database.db
        .selectFrom('holds')
        .select(['ended_at', 'copy_id'])
        .where('person_id', '=', fay)
        .executeTakeFirstOrThrow();
      assert.equal(hold.ended_at, null);
      assert.notEqual(hold.copy_id, null);
    });
  });
}
