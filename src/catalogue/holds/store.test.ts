// HoldStore against every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { createLoanStore } from '../loans/index.ts';
import type { LoanStore } from '../loans/index.ts';
import type { HoldStore } from './model.ts';
import { createHoldStore } from './store.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;
const DAY_MS = 24 * 60 * 60 * 1000;

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`HoldStore on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let loans: LoanStore;
    let holds: HoldStore;
    let clock = new Date('2024-05-01T10:00:00.000Z');
    let serial = 0;
    const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));

    const person = async () =>
      (await stores.persons.create({ vorname: 'Leser', nachname: `Nr ${++serial}` })).id;
    const work = (exemplare: number) => stores.works.create({ titel: `Buch ${++serial}`, exemplare });
    /** A return: the loan store settles the queue in the same transaction. */
    const giveBack = async (personId: number, loanId: number) => {
      assert.ok(await loans.returnLoan(personId, loanId));
    };

    /**
     * A new work's only copy, kept for ben: anna borrowed it, ben placed a hold, a second later
     * anna returned it. Cleo is a third member with neither loan nor hold.
     */
    const keptForBen = async () => {
      const [anna, ben, cleo] = [await person(), await person(), await person()];
      const w = await work(1);
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      const placed = await holds.place(ben, { id: w.id });
      assert.ok(placed.ok);
      tick(1000);
      await giveBack(anna, loan.loan.id);
      return { ben, cleo, w, hold: placed.hold };
    };

    before(async () => {
      database = await target.open();
      // One clock for every store: a work's copies are read as of it (ADR 0067).
      stores = createStores(database.db, { capabilities: database.capabilities, now: () => clock });
      loans = createLoanStore(database.db, { capabilities: database.capabilities, now: () => clock });
      holds = createHoldStore(database.db, { capabilities: database.capabilities, now: () => clock });
    });
    after(() => database?.dispose());

    test('a hold only when no copy is free; once per work; not for a work on loan', async () => {
      const [anna, ben, cleo] = [await person(), await person(), await person()];
      const w = await work(1);
      assert.deepEqual(await holds.place(anna, { id: w.id }), { ok: false, reason: 'copy-free' });
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      assert.deepEqual(await holds.place(anna, { id: w.id }), { ok: false, reason: 'already-borrowed' });
      tick(1000);
      const first = await holds.place(ben, { slug: w.slug });
      assert.ok(first.ok);
      assert.equal(first.hold.status, 'waiting');
      assert.equal(first.hold.position, 1);
      assert.deepEqual(await holds.place(ben, { id: w.id }), { ok: false, reason: 'already-held' });
      tick(1000);
      const second = await holds.place(cleo, { id: w.id });
      assert.ok(second.ok);
      assert.equal(second.hold.position, 2);
      assert.deepEqual(await holds.place(cleo + 1000, { id: w.id }), { ok: false, reason: 'unknown-person' });
      assert.deepEqual(await holds.place(cleo, { id: 999_999 }), { ok: false, reason: 'unknown-work' });
      const queue = await holds.queue(w.id);
      assert.deepEqual(
        queue.items.map((h) => [h.person.id, h.status, h.position]),
        [
          [ben, 'waiting', 1],
          [cleo, 'waiting', 2],
        ],
      );
      assert.equal(queue.lastChange?.toISOString(), clock.toISOString());
    });

    test('a returned copy is kept for the first in the queue, then expires to the next', async () => {
      const [anna, ben, cleo] = [await person(), await person(), await person()];
      const w = await work(1);
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      const b = await holds.place(ben, { id: w.id });
      tick(1000);
      const c = await holds.place(cleo, { id: w.id });
      assert.ok(b.ok && c.ok);
      tick(DAY_MS);
      const returnedAt = clock.toISOString();
      await giveBack(anna, loan.loan.id);
      const ready = await holds.hold(ben, b.hold.id);
      assert.equal(ready?.status, 'ready');
      assert.equal(ready?.readyAt?.toISOString(), returnedAt);
      assert.equal(ready?.expiresAt?.getTime(), Date.parse(returnedAt) + 7 * DAY_MS);
      // The work store makes the copies now, with its generated shelfmark (copies/signatur.ts).
      assert.match(ready?.copy?.signatur ?? '', /^Anon \d+ Bu$/);
      assert.equal((await holds.hold(cleo, c.hold.id))?.position, 1);
      // Eight days later, before anything is written: ben's hold reads as expired, cleo's as ready
      // since ben's expiry.
      tick(8 * DAY_MS);
      const expired = await holds.hold(ben, b.hold.id);
      assert.equal(expired?.status, 'ended');
      assert.equal(expired?.endReason, 'expired');
      const next = await holds.hold(cleo, c.hold.id);
      assert.equal(next?.status, 'ready');
      assert.equal(next?.readyAt?.getTime(), Date.parse(returnedAt) + 7 * DAY_MS);
      assert.deepEqual((await holds.holdsOf(ben)).items, []);
      // The next write to the work stores exactly that (a refused borrow too).
      assert.deepEqual(await loans.borrow(anna, { id: w.id }), { ok: false, reason: 'no-copy-free' });
      const rows = await database.db
        .selectFrom('holds')
        .select(['id', 'ended_at', 'end_reason', 'ready_at'])
        .where('work_id', '=', w.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.end_reason, r.ended_at, r.ready_at]),
        [
          ['expired', expired?.endedAt?.toISOString(), returnedAt],
          [null, null, next?.readyAt?.toISOString()],
        ],
      );
    });

    test('cancelling ends the hold (then it is history), and a kept copy goes to the next', async () => {
      const [anna, ben, cleo] = [await person(), await person(), await person()];
      const w = await work(1);
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      const b = await holds.place(ben, { id: w.id });
      tick(1000);
      const c = await holds.place(cleo, { id: w.id });
      assert.ok(b.ok && c.ok);
      tick(1000);
      await giveBack(anna, loan.loan.id);
      tick(1000);
      const cancelled = await holds.cancel(ben, b.hold.id);
      assert.ok(cancelled && 'cancelled' in cancelled);
      assert.equal(cancelled.cancelled.endReason, 'cancelled');
      const again = await holds.cancel(ben, b.hold.id);
      assert.ok(again && 'ended' in again);
      assert.equal(await holds.cancel(cleo, b.hold.id), null, 'a hold belongs to one member');
      const next = await holds.hold(cleo, c.hold.id);
      assert.equal(next?.status, 'ready');
      assert.equal(next?.readyAt?.toISOString(), clock.toISOString());
    });

    test('a copy kept for a member is lent only to that member, whose borrow fulfils the hold', async () => {
      const { ben, cleo, w, hold } = await keptForBen();
      const kept = await holds.hold(ben, hold.id);
      assert.equal(kept?.status, 'ready');
      assert.deepEqual(await loans.borrow(cleo, { id: w.id }), { ok: false, reason: 'no-copy-free' });
      const found = await stores.works.byId(w.id);
      assert.ok(found && 'found' in found);
      assert.equal(found.found.verfuegbar, 0, 'a kept copy is not available');
      tick(1000);
      const borrowed = await loans.borrow(ben, { id: w.id });
      assert.ok(borrowed.ok);
      assert.equal(borrowed.loan.copy?.id, kept?.copy?.id, 'the copy kept for ben');
      const fulfilled = await holds.hold(ben, hold.id);
      assert.deepEqual([fulfilled?.status, fulfilled?.endReason], ['ended', 'fulfilled']);
      assert.deepEqual((await holds.holdsOf(ben)).items, []);
    });

    test('a kept copy that ran out goes to the next in the queue, or back to the shelf', async () => {
      const [anna, ben, cleo, dora] = [await person(), await person(), await person(), await person()];
      const w = await work(1);
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      assert.ok((await holds.place(ben, { id: w.id })).ok);
      tick(1000);
      assert.ok((await holds.place(cleo, { id: w.id })).ok);
      tick(1000);
      await giveBack(anna, loan.loan.id);
      tick(8 * DAY_MS);
      // Ben's time ran out: the copy is cleo's, ben's borrow finds nothing free.
      assert.deepEqual(await loans.borrow(ben, { id: w.id }), { ok: false, reason: 'no-copy-free' });
      tick(8 * DAY_MS);
      // Cleo's too, nobody waits: the copy is free for anyone.
      const borrowed = await loans.borrow(dora, { id: w.id });
      assert.ok(borrowed.ok);
      const ends = await database.db
        .selectFrom('holds')
        .select('end_reason')
        .where('work_id', '=', w.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        ends.map((e) => e.end_reason),
        ['expired', 'expired'],
      );
    });

    test('reads show a kept copy as of now, fresh until its hold runs out (ADR 0067)', async () => {
      const [anna, ben, cleo] = [await person(), await person(), await person()];
      const w = await work(1);
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      assert.ok((await holds.place(ben, { id: w.id })).ok);
      assert.ok((await holds.place(cleo, { id: w.id })).ok);
      tick(1000);
      await giveBack(anna, loan.loan.id);
      const returned = clock.getTime();
      const read = async () => {
        const found = await stores.works.byId(w.id);
        assert.ok(found && 'found' in found);
        const [copy] = found.found.copies ?? [];
        assert.deepEqual(await stores.copies.list(w.id), found.found.copies, 'the copies list agrees');
        return { verfuegbar: found.found.verfuegbar, copy: copy! };
      };
      const holder = (c: { status: { kind: string; person?: { id: number } } }) => c.status.person?.id;

      let now = await read();
      assert.equal(holder(now.copy), ben);
      assert.equal(now.copy.freshUntil?.getTime(), returned + 7 * DAY_MS, "until ben's hold runs out");
      // No write from here on: only the clock moves.
      tick(8 * DAY_MS);
      now = await read();
      assert.equal(now.verfuegbar, 0);
      assert.equal(holder(now.copy), cleo, 'kept for the next in the queue');
      assert.equal(now.copy.changedAt.getTime(), returned + 7 * DAY_MS, 'changed when ben’s ran out');
      assert.equal(now.copy.freshUntil?.getTime(), returned + 14 * DAY_MS, "until cleo's runs out");
      tick(8 * DAY_MS);
      now = await read();
      assert.deepEqual([now.verfuegbar, now.copy.status.kind], [1, 'verfuegbar'], 'nobody waits: free');
      assert.equal(now.copy.changedAt.getTime(), returned + 14 * DAY_MS);
      assert.equal(now.copy.freshUntil, undefined, 'only a write changes it now');
    });

    test('copy writes settle the queue: a copy whose hold ran out can go; a new one is kept', async () => {
      const { cleo, w } = await keptForBen();
      const [kept] = await stores.copies.list(w.id);
      const copies = stores.copies.ofWork(w.id);
      await assert.rejects(copies.delete(kept!.id), { name: 'CopiesOnLoanError' }, 'kept for ben');
      tick(8 * DAY_MS);
      // Ben's hold ran out with nobody waiting: the reads show the copy free, and so may staff.
      assert.equal((await stores.copies.list(w.id))[0]?.status.kind, 'verfuegbar');
      assert.equal(await copies.delete(kept!.id), true);

      assert.deepEqual(await stores.copies.list(w.id), [], 'no copy left');
      assert.ok((await holds.place(cleo, { id: w.id })).ok, 'no copy free: cleo waits');
      tick(1000);
      const added = await copies.create({
        signatur: 'Neu 1',
        barcode: `NEU-${w.id}`,
        standort: 'Freihand',
        vermisst: false,
      });
      assert.equal(added.status.kind, 'vorgemerkt', 'a new copy goes to the first waiting');
      assert.equal((await holds.holdsOf(cleo)).items[0]?.status, 'ready');
    });

    test("a work's PUT settles the queue: copies added go to members waiting", async () => {
      const [anna, ben] = [await person(), await person()];
      const w = await work(1);
      const loan = await loans.borrow(anna, { id: w.id });
      assert.ok(loan.ok);
      assert.ok((await holds.place(ben, { id: w.id })).ok);
      tick(1000);
      const replaced = await stores.works.replace(w.id, { titel: w.titel, exemplare: 2 });
      assert.equal(replaced?.verfuegbar, 0, 'the new copy is kept for ben');
      assert.equal((await holds.holdsOf(ben)).items[0]?.status, 'ready');
      await giveBack(anna, loan.loan.id);
      tick(8 * DAY_MS);
      // Ben's hold ran out: both copies free, as the reads show, so both may be withdrawn.
      const none = await stores.works.replace(w.id, { titel: w.titel, exemplare: 0 });
      assert.deepEqual([none?.exemplare, none?.verfuegbar], [0, 0]);
      assert.deepEqual((await holds.holdsOf(ben)).items, [], "ben's hold ended");
    });

    test('50 concurrent holds on one work, one handle: the queue is exactly the order of arrival', async () => {
      const w = await work(1);
      const lender = await person();
      assert.ok((await loans.borrow(lender, { id: w.id })).ok);
      const people = await Promise.all(Array.from({ length: 50 }, () => person()));
      const outcomes = await Promise.all(people.map((p) => holds.place(p, { id: w.id })));
      assert.ok(outcomes.every((o) => o.ok));
      const queue = await holds.queue(w.id);
      assert.deepEqual(
        queue.items.map((h) => h.position),
        people.map((_p, i) => i + 1),
      );
      const ids = queue.items.map((h) => h.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'placed in id order',
      );
    });
  });
}
