// RenewalStore against every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { createHoldStore } from '../holds/index.ts';
import type { HoldStore } from '../holds/index.ts';
import type { LoanStore } from './model.ts';
import { createLoanStore } from './store.ts';
import { createRenewalStore, type RenewalStore } from './renew.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;
const DAY_MS = 24 * 60 * 60 * 1000;

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`RenewalStore on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let loans: LoanStore;
    let holds: HoldStore;
    let renewals: RenewalStore;
    let clock = new Date('2024-05-01T10:00:00.000Z');
    let serial = 0;

    const person = async () =>
      (await stores.persons.create({ vorname: 'Leser', nachname: `Nr ${++serial}` })).id;
    const work = async (exemplare: number) => {
      const w = await stores.works.create({ titel: `Buch ${++serial}`, exemplare });
      const have = await database.db.selectFrom('copies').select('id').where('work_id', '=', w.id).execute();
      for (let nummer = have.length + 1; nummer <= exemplare; nummer++)
        await database.db
          .insertInto('copies')
          .values({
            work_id: w.id,
            nummer,
            signatur: `V ${w.id} ${nummer}`,
            barcode: `V-${w.id}-${nummer}`,
            standort: 'Test',
            created_at: clock.toISOString(),
            updated_at: clock.toISOString(),
          })
          .execute();
      return w;
    };
    const row = (id: number) =>
      database.db
        .selectFrom('loans')
        .select(['due_at', 'renewals', 'renewed_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    before(async () => {
      database = await target.open();
      const options = { capabilities: database.capabilities, now: () => clock };
      stores = createStores(database.db, { capabilities: database.capabilities });
      loans = createLoanStore(database.db, options);
      holds = createHoldStore(database.db, options);
      renewals = createRenewalStore(database.db, { ...options, maxRenewals: 2 });
    });
    after(() => database?.dispose());

    test('a renewal moves the due date one period past the later of now and the due date, twice at most', async () => {
      const anna = await person();
      const w = await work(1);
      const borrowed = await loans.borrow(anna, { id: w.id });
      assert.ok(borrowed.ok);
      const id = borrowed.loan.id;
      const due = borrowed.loan.dueAt.getTime();
      clock = new Date(clock.getTime() + DAY_MS);
      const early = await renewals.renew(anna, id);
      assert.deepEqual(early, { ok: true, dueAt: new Date(due + 28 * DAY_MS), renewals: 1 });
      assert.deepEqual(await row(id), {
        due_at: new Date(due + 28 * DAY_MS).toISOString(),
        renewals: 1,
        renewed_at: clock.toISOString(),
      });
      // Overdue: from now, not from the old due date.
      clock = new Date(due + 40 * DAY_MS);
      const late = await renewals.renew(anna, id);
      assert.deepEqual(late, { ok: true, dueAt: new Date(clock.getTime() + 28 * DAY_MS), renewals: 2 });
      assert.deepEqual(await renewals.renew(anna, id), {
        ok: false,
        reason: 'limit',
        renewals: 2,
        allowed: 2,
      });
      assert.equal((await row(id)).renewals, 2, 'a refusal changes nothing');
      assert.equal(await renewals.renew(anna + 1000, id), null, 'a loan belongs to one person');
      assert.ok(await loans.returnLoan(anna, id));
      assert.deepEqual(await renewals.renew(anna, id), { ok: false, reason: 'returned', renewals: 2 });
    });

    test("another member's hold refuses a renewal; the borrower's own does not exist; a cancelled one no more", async () => {
      const [anna, ben] = [await person(), await person()];
      const w = await work(1);
      const borrowed = await loans.borrow(anna, { id: w.id });
      assert.ok(borrowed.ok);
      const placed = await holds.place(ben, { id: w.id });
      assert.ok(placed.ok);
      const before = await row(borrowed.loan.id);
      assert.deepEqual(await renewals.renew(anna, borrowed.loan.id), {
        ok: false,
        reason: 'held',
        renewals: 0,
      });
      assert.deepEqual(await row(borrowed.loan.id), before);
      assert.ok(await holds.cancel(ben, placed.hold.id));
      const renewed = await renewals.renew(anna, borrowed.loan.id);
      assert.ok(renewed?.ok);
    });
  });
}
