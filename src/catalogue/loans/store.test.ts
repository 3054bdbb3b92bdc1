// LoanStore against every engine: SQLite always, PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set.
// The concurrency tests race 50 borrowers for 3 copies: on PostgreSQL over a pool of 25
// connections, on SQLite from 5 processes sharing the file (and once in-process).
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { moveSlug } from '../../../test/kit/catalogue/move-slug.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import type { LoanStore } from './model.ts';
import { createLoanStore } from './store.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;
const DAY_MS = 24 * 60 * 60 * 1000;

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`LoanStore on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let loans: LoanStore;
    let clock = new Date('2024-05-01T10:00:00.000Z');
    let serial = 0;

    const person = async () =>
      (await stores.persons.create({ vorname: 'Leser', nachname: `Nr ${++serial}` })).id;
    const work = async (exemplare: number) => stores.works.create({ titel: `Buch ${++serial}`, exemplare });
    /** The copies of a work's open loans: as many as loans, each a copy of that work. */
    const openCopies = async (workId: number) => {
      const rows = await database.db
        .selectFrom('loans')
        .innerJoin('copies', 'copies.id', 'loans.copy_id')
        .select(['copies.id', 'copies.work_id'])
        .where('loans.work_id', '=', workId)
        .where('loans.returned_at', 'is', null)
        .execute();
      assert.ok(rows.every((r) => r.work_id === workId));
      return rows.map((r) => r.id);
    };
    const available = async (id: number) => {
      const found = await stores.works.byId(id);
      assert.ok(found && 'found' in found);
      return found.found.verfuegbar;
    };

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      loans = createLoanStore(database.db, { capabilities: database.capabilities, now: () => clock });
    });
    after(() => database?.dispose());

    test('borrow lends a copy for 28 days; the list shows it with title and slug', async () => {
      const anna = await person();
      const faust = await stores.works.create({ slug: 'faust', titel: 'Faust', exemplare: 2 });
      const outcome = await loans.borrow(anna, { slug: 'faust' });
      assert.ok(outcome.ok);
      const loan = outcome.loan;
      assert.deepEqual(loan.werk, { id: faust.id, slug: 'faust', titel: 'Faust' });
      assert.deepEqual(loan.copy && { ...loan.copy, id: 0 }, {
        id: 0,
        nummer: 1,
        signatur: `Anon ${faust.id} Fa`,
        barcode: `SM${faust.id}-1`,
      });
      assert.deepEqual(await openCopies(faust.id), [loan.copy?.id]);
      assert.equal(loan.person.id, anna);
      assert.equal(loan.borrowedAt.toISOString(), '2024-05-01T10:00:00.000Z');
      assert.equal(loan.dueAt.toISOString(), '2024-05-29T10:00:00.000Z');
      assert.equal(loan.returnedAt, null);
      assert.equal(await available(faust.id), 1);
      const current = await loans.currentLoans(anna);
      assert.deepEqual(current.items, [loan]);
      assert.equal(current.lastChange?.toISOString(), '2024-05-01T10:00:00.000Z');
      assert.deepEqual(await loans.loan(anna, loan.id), loan);
      assert.equal(await loans.loan(anna + 1000, loan.id), null, 'a loan belongs to one person');
    });

    test('one person gets one copy of a work; when none is free the answer is no-copy-free', async () => {
      const [a, b, c] = [await person(), await person(), await person()];
      const w = await work(2);
      assert.ok((await loans.borrow(a, { id: w.id })).ok);
      assert.deepEqual(await loans.borrow(a, { id: w.id }), { ok: false, reason: 'already-borrowed' });
      assert.ok((await loans.borrow(b, { id: w.id })).ok);
      assert.deepEqual(await loans.borrow(c, { id: w.id }), { ok: false, reason: 'no-copy-free' });
      assert.equal(await available(w.id), 0);
    });

    test('returning sets returned_at, keeps the row as history and frees the copy', async () => {
      const [a, b] = [await person(), await person()];
      const w = await work(1);
      const first = await loans.borrow(a, { id: w.id });
      assert.ok(first.ok);
      clock = new Date('2024-05-10T08:00:00.000Z');
      assert.equal(await loans.returnLoan(b, first.loan.id), null, "another person's loan is unknown");
      const back = await loans.returnLoan(a, first.loan.id);
      assert.ok(back && 'returned' in back);
      assert.equal(back.returned.returnedAt?.toISOString(), '2024-05-10T08:00:00.000Z');
      assert.deepEqual(await loans.returnLoan(a, first.loan.id), { already: true });
      assert.equal(await loans.returnLoan(a, 987_654), null);
      assert.deepEqual((await loans.loan(a, first.loan.id))?.returnedAt, back.returned.returnedAt);
      const current = await loans.currentLoans(a);
      assert.deepEqual(current.items, []);
      assert.equal(current.lastChange?.toISOString(), '2024-05-10T08:00:00.000Z');
      assert.equal(await available(w.id), 1);
      // The same person may borrow the work again; the old row stays.
      assert.ok((await loans.borrow(a, { id: w.id })).ok);
      const rows = await database.db.selectFrom('loans').select('id').where('work_id', '=', w.id).execute();
      assert.equal(rows.length, 2);
      clock = new Date('2024-05-01T10:00:00.000Z');
    });

    test('works by old slug are followed; deleted or unknown works and persons are refused', async () => {
      const a = await person();
      const w = await stores.works.create({ titel: 'Alter Titel', exemplare: 1 });
      await moveSlug(database.db, 'work', w.id, 'neuer-titel');
      const moved = await loans.borrow(a, { slug: 'alter-titel' });
      assert.ok(moved.ok);
      assert.equal(moved.loan.werk.slug, 'neuer-titel');
      const gone = await work(1);
      await stores.works.delete(gone.id);
      assert.deepEqual(await loans.borrow(a, { id: gone.id }), { ok: false, reason: 'work-gone' });
      assert.deepEqual(await loans.borrow(a, { slug: gone.slug }), { ok: false, reason: 'work-gone' });
      assert.deepEqual(await loans.borrow(a, { slug: 'gibt-es-nicht' }), {
        ok: false,
        reason: 'unknown-work',
      });
      assert.deepEqual(await loans.borrow(a, { id: 987_654 }), { ok: false, reason: 'unknown-work' });
      const other = await work(1);
      assert.deepEqual(await loans.borrow(987_654, { id: other.id }), {
        ok: false,
        reason: 'unknown-person',
      });
      const leaving = await person();
      await stores.persons.delete(leaving);
      assert.deepEqual(await loans.borrow(leaving, { id: other.id }), {
        ok: false,
        reason: 'unknown-person',
      });
      assert.deepEqual(await loans.person(leaving), { gone: true });
      assert.equal(await loans.person(987_654), null);
      assert.deepEqual(await loans.person(a), {
        found: { id: a, slug: `leser-nr-${serial - 3}`, vorname: 'Leser', nachname: `Nr ${serial - 3}` },
      });
    });

    test('the due list holds every open loan, earliest due date first', async () => {
      const a = await person();
      const [w1, w2, w3] = [await work(1), await work(1), await work(1)];
      clock = new Date('2024-06-10T00:00:00.000Z');
      await loans.borrow(a, { id: w1.id });
      clock = new Date('2024-06-01T00:00:00.000Z');
      const early = await loans.borrow(a, { id: w2.id });
      await loans.borrow(a, { id: w3.id });
      assert.ok(early.ok);
      await loans.returnLoan(a, early.loan.id);
      clock = new Date('2024-05-01T10:00:00.000Z');
      const due = await loans.due();
      const dueTimes = due.map((l) => l.dueAt.getTime());
      assert.deepEqual(
        dueTimes,
        [...dueTimes].sort((x, y) => x - y),
      );
      assert.ok(due.every((l) => l.returnedAt === null));
      assert.ok(!due.some((l) => l.id === early.loan.id));
      const mine = due.filter((l) => l.person.id === a).map((l) => [l.werk.id, l.dueAt.getTime()]);
      assert.deepEqual(mine, [
        [w3.id, Date.parse('2024-06-01T00:00:00.000Z') + 28 * DAY_MS],
        [w1.id, Date.parse('2024-06-10T00:00:00.000Z') + 28 * DAY_MS],
      ]);
      assert.equal((await loans.due(1)).length, 1);
    });

    test('50 concurrent borrowers, 3 copies, one handle: exactly 3 loans', async () => {
      const w = await work(3);
      const people = await Promise.all(Array.from({ length: 50 }, () => person()));
      const outcomes = await Promise.all(people.map((p) => loans.borrow(p, { id: w.id })));
      const reasons = outcomes.map((o) => (o.ok ? 'ok' : o.reason));
      assert.equal(reasons.filter((r) => r === 'ok').length, 3);
      assert.equal(reasons.filter((r) => r === 'no-copy-free').length, 47);
      assert.equal(await available(w.id), 0);
      assert.equal(new Set(await openCopies(w.id)).size, 3, 'three loans on three distinct copies');
    });

    test('borrow takes the lowest free copy: never a missing, lent, held or withdrawn one', async () => {
      // d's hold keeps copy 2 for d (only d's borrow could take it, ADR 0059).
      const [a, b, c, d] = [await person(), await person(), await person(), await person()];
      const w = await work(5);
      const ids = (
        await database.db
          .selectFrom('copies')
          .select('id')
          .where('work_id', '=', w.id)
          .orderBy('nummer')
          .execute()
      ).map((r) => r.id);
      const at = '2024-04-01T00:00:00.000Z';
      await database.db.updateTable('copies').set({ missing_since: at }).where('id', '=', ids[0]!).execute();
      await database.db.updateTable('copies').set({ deleted_at: at }).where('id', '=', ids[2]!).execute();
      await database.db
        .insertInto('holds')
        .values({ person_id: d, work_id: w.id, placed_at: at, copy_id: ids[1]!, ready_at: at })
        .execute();
      assert.equal(await available(w.id), 2);
      const createdVersion = (
        await database.db
          .selectFrom('copies')
          .select('updated_at')
          .where('id', '=', ids[3]!)
          .executeTakeFirstOrThrow()
      ).updated_at;
      const first = await loans.borrow(a, { id: w.id });
      assert.ok(first.ok);
      assert.equal(first.loan.copy?.id, ids[3]);
      assert.equal(first.loan.copy?.nummer, 4);
      const versionOf = async (id: number) =>
        (
          await database.db
            .selectFrom('copies')
            .select('updated_at')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).updated_at;
      const lentVersion = await versionOf(ids[3]!);
      assert.ok(lentVersion > createdVersion, 'the lent copy has a new version');
      const second = await loans.borrow(b, { id: w.id });
      assert.ok(second.ok);
      assert.equal(second.loan.copy?.id, ids[4]);
      assert.deepEqual(await loans.borrow(c, { id: w.id }), { ok: false, reason: 'no-copy-free' });
      assert.equal(await available(w.id), 0);
      // Returned, the copy is free again and goes to the next borrower.
      clock = new Date('2024-05-02T10:00:00.000Z');
      await loans.returnLoan(a, first.loan.id);
      assert.ok((await versionOf(ids[3]!)) > lentVersion, 'the returned copy has a new version');
      const third = await loans.borrow(c, { id: w.id });
      assert.ok(third.ok);
      assert.equal(third.loan.copy?.id, ids[3]);
      clock = new Date('2024-05-01T10:00:00.000Z');
    });

    test('a work without copies rows (tools, the bench loader) lends nothing and shows none free', async () => {
      const a = await person();
      const w = await work(2);
      await database.db.deleteFrom('copies').where('work_id', '=', w.id).execute();
      assert.deepEqual(await loans.borrow(a, { id: w.id }), { ok: false, reason: 'no-copy-free' });
      assert.equal(await available(w.id), 0);
      // A loan without a copy (written by such a tool) reads with copy null.
      const at = clock.toISOString();
      const { id } = await database.db
        .insertInto('loans')
        .values({ person_id: a, work_id: w.id, borrowed_at: at, due_at: at, returned_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      assert.equal((await loans.loan(a, id))?.copy, null);
    });

    if (target.dialect === 'postgres') {
      test('50 concurrent borrowers, 3 copies, 25 PostgreSQL connections: exactly 3 loans', async () => {
        const schema = await sql<{ s: string }>`select current_schema() as s`.execute(database.db);
        const wide = await openDatabase<DB>(PG_URL ?? '', { searchPath: schema.rows[0]!.s, poolMax: 25 });
        try {
          const store = createLoanStore(wide.db, { capabilities: wide.capabilities });
          // Every connection is open before the race, so the borrowers really overlap.
          await Promise.all(Array.from({ length: 25 }, () => sql`select pg_sleep(0.01)`.execute(wide.db)));
          const w = await work(3);
          const people = await Promise.all(Array.from({ length: 50 }, () => person()));
          const outcomes = await Promise.all(people.map((p) => store.borrow(p, { id: w.id })));
          const reasons = outcomes.map((o) => (o.ok ? 'ok' : o.reason));
          assert.equal(reasons.filter((r) => r === 'ok').length, 3);
          assert.equal(reasons.filter((r) => r === 'no-copy-free').length, 47);
          assert.equal(await available(w.id), 0);
          const open = await database.db
            .selectFrom('loans')
            .select('id')
            .where('work_id', '=', w.id)
            .where('returned_at', 'is', null)
            .execute();
          assert.equal(open.length, 3);
          assert.equal(new Set(await openCopies(w.id)).size, 3, 'three loans on three distinct copies');
        } finally {
          await wide.close();
        }
      });
    }

    if (target.dialect === 'sqlite') {
      test('50 concurrent borrowers, 3 copies, 5 processes on one SQLite file: exactly 3 loans', async () => {
        const file = await sql<{
          file: string;
        }>`select file from pragma_database_list where name = 'main'`.execute(database.db);
        const path = file.rows[0]!.file;
        const w = await work(3);
        const people = await Promise.all(Array.from({ length: 50 }, () => person()));
        const groups = Array.from({ length: 5 }, (_, i) => people.filter((_p, j) => j % 5 === i));
        const reasons = (await raceInProcesses(path, w.id, groups)).flat();
        assert.equal(reasons.length, 50);
        assert.equal(reasons.filter((r) => r === 'ok').length, 3, reasons.join(', '));
        assert.equal(reasons.filter((r) => r === 'no-copy-free').length, 47, reasons.join(', '));
        assert.equal(await available(w.id), 0);
        assert.equal(new Set(await openCopies(w.id)).size, 3, 'three loans on three distinct copies');
      });
    }
  });
}

/** Starts one child per group, lets them all borrow at the same moment, collects the reasons. */
async function raceInProcesses(path: string, workId: number, groups: number[][]): Promise<string[][]> {
  const children = groups.map((personIds) =>
    fork(
      new URL('../../../test/kit/catalogue/borrow-child.ts', import.meta.url),
      [JSON.stringify({ path, workId, personIds })],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    ),
  );
  try {
    const ready = children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.once('message', () => resolve());
          child.once('exit', (code) => reject(new Error(`borrow child exited early (${code})`)));
        }),
    );
    const results = children.map(
      (child) =>
        new Promise<string[]>((resolve, reject) => {
          child.on('message', (m: unknown) => {
            if (typeof m === 'object' && m !== null && 'outcomes' in m)
              resolve((m as { outcomes: string[] }).outcomes);
          });
          child.once('exit', (code) => reject(new Error(`borrow child exited without a result (${code})`)));
        }),
    );
    await Promise.all(ready);
    for (const child of children) child.send('go');
    return await Promise.all(results);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}
