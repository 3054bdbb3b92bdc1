// SQL-backed LoanStore (both engines). Borrowing is one transaction that first takes the work's
// lock and only then looks for a free copy (copies/free.ts), so concurrent borrowers queue
// instead of all seeing the same free copy (and the unique index loans_open_copy would refuse a
// second open loan of one copy anyway): PostgreSQL locks the work row (`SELECT … FOR UPDATE`); SQLite's driver
// opens every write transaction with BEGIN IMMEDIATE, which admits one writer (of any process)
// at a time, so the count and the insert are never interleaved with another borrow.
import type { Kysely } from 'kysely';
import { detectCapabilities, type Capabilities } from '../../storage/index.ts';
import type { Lookup, PersonRef } from '../model.ts';
import { latestStamp, touchRows } from '../shared/index.ts';
import type { DB } from '../tables.ts';
import { resolveSlug } from '../slugs.ts';
import { blockedByOverdue, DEFAULT_OVERDUE_BLOCK_DAYS } from './overdue.ts';
import { firstFreeCopy, loanTerms, type TermsRefusal } from '../rules/index.ts';
import { HOLD_DAYS, lockWork, lockWorkForPerson, settleWork, takeKeptCopy } from '../holds/index.ts';
import type { BorrowOutcome, CurrentLoans, Loan, LoanStore, ReturnOutcome, WorkKey } from './model.ts';
import { chosenCopy } from './chosen-copy.ts';

export const LOAN_DAYS = 28;
export const DEFAULT_DUE_LIMIT = 500;
/** Open loans one member may have in all (SHELFMARK_LOAN_LIMIT; ADR 0084). */
export const DEFAULT_LOAN_LIMIT = 20;

export interface LoanStoreOptions {
  readonly capabilities?: Capabilities;
  /** Clock for borrow/return timestamps (tests pin it). */
  readonly now?: () => Date;
  /** Loan period in days (default 28). */
  readonly loanDays?: number;
  /** A loan overdue by more than this many days blocks borrowing (default 14; ADR 0061). */
  readonly overdueBlockDays?: number;
  /** Days a returned copy is kept for the first hold in the queue (default 7; ADR 0059). */
  readonly holdDays?: number;
  /** Open loans one member may have in all; 0: no limit (default 20; ADR 0084). */
  readonly loanLimit?: number;
}

type LoanRow = {
  id: number;
  borrowed_at: string;
  due_at: string;
  returned_at: string | null;
  renewals: number;
  renewed_at: string | null;
  person_id: number;
  person_slug: string;
  vorname: string;
  nachname: string;
  work_id: number;
  work_slug: string;
  titel: string;
  copy_id: number | null;
  copy_nummer: number | null;
  copy_signatur: string | null;
  copy_barcode: string | null;
};

function loanOf(row: LoanRow): Loan {
  return {
    id: row.id,
    person: { id: row.person_id, slug: row.person_slug, vorname: row.vorname, nachname: row.nachname },
    werk: { id: row.work_id, slug: row.work_slug, titel: row.titel },
    copy:
      row.copy_id === null
        ? null
        : {
            id: row.copy_id,
            nummer: row.copy_nummer!,
            signatur: row.copy_signatur!,
            barcode: row.copy_barcode!,
          },
    borrowedAt: new Date(row.borrowed_at),
    dueAt: new Date(row.due_at),
    returnedAt: row.returned_at === null ? null : new Date(row.returned_at),
    renewals: row.renewals,
    renewedAt: row.renewed_at === null ? null : new Date(row.renewed_at),
  };
}

/** Loans joined with their person, work and copy, in the shape of LoanRow. */
function loansQuery(db: Kysely<DB>) {
  return db
    .selectFrom('loans')
    .innerJoin('persons', 'persons.id', 'loans.person_id')
    .innerJoin('works', 'works.id', 'loans.work_id')
    .leftJoin('copies', 'copies.id', 'loans.copy_id')
    .select([
      'loans.id',
      'loans.borrowed_at',
      'loans.due_at',
      'loans.returned_at',
      'loans.renewals',
      'loans.renewed_at',
      'persons.id as person_id',
      'persons.slug as person_slug',
      'persons.vorname',
      'persons.nachname',
      'works.id as work_id',
      'works.slug as work_slug',
      'works.titel',
      'copies.id as copy_id',
      'copies.nummer as copy_nummer',
      'copies.signatur as copy_signatur',
      'copies.barcode as copy_barcode',
    ]);
}

/** A refusal found after the transaction wrote (a hold's take): thrown to roll it back. */
class Refused extends Error {
  readonly reason: TermsRefusal;
  constructor(reason: TermsRefusal) {
    super(reason);
    this.reason = reason;
  }
}

const isId = (n: number) => Number.isSafeInteger(n) && n > 0;

/** The id of the live work a key names, or why there is none. */
async function workIdOf(db: Kysely<DB>, key: WorkKey): Promise<number | 'unknown-work' | 'work-gone'> {
  if ('id' in key) return isId(key.id) ? key.id : 'unknown-work';
  let resolution = await resolveSlug(db, 'work', key.slug);
  if (resolution && 'movedTo' in resolution) resolution = await resolveSlug(db, 'work', resolution.movedTo);
  if (resolution === null || 'movedTo' in resolution) return 'unknown-work';
  if ('gone' in resolution) return 'work-gone';
  return resolution.id;
}

export function createLoanStore(db: Kysely<DB>, options: LoanStoreOptions = {}): LoanStore {
  const capabilities = options.capabilities ?? detectCapabilities(db);
  const clock = options.now ?? (() => new Date());
  const loanDays = options.loanDays ?? LOAN_DAYS;
  const holdDays = options.holdDays ?? HOLD_DAYS;
  const overdueBlockDays = options.overdueBlockDays ?? DEFAULT_OVERDUE_BLOCK_DAYS;
  const rules = { loanDays, loanLimit: options.loanLimit ?? DEFAULT_LOAN_LIMIT };

  async function loadLoan(conn: Kysely<DB>, id: number): Promise<Loan> {
    return loanOf(await loansQuery(conn).where('loans.id', '=', id).executeTakeFirstOrThrow());
  }

  async function loan(personId: number, loanId: number): Promise<Loan | null> {
    if (!isId(personId) || !isId(loanId)) return null;
    const row = await loansQuery(db)
      .where('loans.id', '=', loanId)
      .where('loans.person_id', '=', personId)
      .executeTakeFirst();
    return row ? loanOf(row) : null;
  }

  return {
    async person(id): Promise<Lookup<PersonRef>> {
      if (!isId(id)) return null;
      const row = await db
        .selectFrom('persons')
        .select(['id', 'slug', 'vorname', 'nachname', 'deleted_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      if (row.deleted_at !== null) return { gone: true };
      const { deleted_at: _deleted, ...person } = row;
      return { found: person };
    },

    async currentLoans(personId): Promise<CurrentLoans> {
      if (!isId(personId)) return { items: [], lastChange: null };
      const rows = await loansQuery(db)
        .where('loans.person_id', '=', personId)
        .where('loans.returned_at', 'is', null)
        .orderBy('loans.borrowed_at')
        .orderBy('loans.id')
        .execute();
      // Returned loans leave the list, so they change it too.
      const last = await db
        .selectFrom('loans')
        .select((eb) => [
          eb.fn.max('borrowed_at').as('borrowed'),
          eb.fn.max('returned_at').as('returned'),
          // A renewal moves a due date the list shows (ADR 0060).
          eb.fn.max('renewed_at').as('renewed'),
        ])
        .where('person_id', '=', personId)
        .executeTakeFirst();
      const lastChange = latestStamp([last?.borrowed, last?.returned, last?.renewed]);
      return { items: rows.map(loanOf), lastChange };
    },

    loan,

    async borrow(personId, key, options = {}): Promise<BorrowOutcome> {
      if (!isId(personId)) return { ok: false, reason: 'unknown-person' };
      const workId = await workIdOf(db, key);
      if (typeof workId !== 'number') return { ok: false, reason: workId };
      return db
        .transaction()
        .execute(async (trx): Promise<BorrowOutcome> => {
          // The lock comes first (the change counter, then the work: ADR 0055, 0059): whoever holds
          // it sees every loan and hold committed before it.
          const work = await lockWorkForPerson(trx, workId, personId, capabilities);
          if (typeof work === 'string') return { ok: false, reason: work };
          if (await blockedByOverdue(trx, personId, clock(), overdueBlockDays))
            return { ok: false, reason: 'overdue-loans' };
          const open = await trx
            .selectFrom('loans')
            .select('person_id')
            .where('work_id', '=', workId)
            .where('returned_at', 'is', null)
            .execute();
          if (open.some((l) => l.person_id === personId)) return { ok: false, reason: 'already-borrowed' };
          const at = clock();
          // A copy the desk scanned (ADR 0082): checked before anything is written, so a refusal
          // leaves the holds as they were.
          const chosen =
            options.copyId === undefined
              ? null
              : await chosenCopy(trx, work, personId, options.copyId, at.toISOString(), holdDays);
          if (typeof chosen === 'string') return { ok: false, reason: chosen };
          // The copy kept for this member by a hold (which it fulfils), else a free one; copies
          // kept for others are not free (ADR 0059).
          const kept = await takeKeptCopy(trx, work, personId, at.toISOString(), holdDays);
          const copy = chosen ?? (kept !== null ? { id: kept } : await firstFreeCopy(trx, workId));
          if (!copy) return { ok: false, reason: 'no-copy-free' };
          // The item type's rules and the calendar (ADR 0084); a refusal rolls back the hold's take.
          const terms = await loanTerms(trx, personId, copy.id, at, rules);
          if (!terms.ok) throw new Refused(terms.reason);
          const { id } = await trx
            .insertInto('loans')
            .values({
              person_id: personId,
              work_id: workId,
              copy_id: copy.id,
              borrowed_at: at.toISOString(),
              due_at: terms.dueAt.toISOString(),
              returned_at: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          // The copy shows its status, the work `verfuegbar` and its copies: new versions (ADR 0024).
          await touchRows(trx, 'copies', [copy.id], at.toISOString());
          await touchRows(trx, 'works', [workId], at.toISOString());
          // The member took another copy than the one kept for them: the kept one goes to the
          // next in the queue (or back to the shelf) at once.
          if (kept !== null && kept !== copy.id) {
            await touchRows(trx, 'copies', [kept], at.toISOString());
            await settleWork(trx, work, at.toISOString(), holdDays);
          }
          return { ok: true, loan: await loadLoan(trx, id) };
        })
        .catch((error: unknown) => {
          if (error instanceof Refused) return { ok: false, reason: error.reason };
          throw error;
        });
    },

    async returnLoan(personId, loanId): Promise<ReturnOutcome> {
      if (!isId(personId) || !isId(loanId)) return null;
      const target = await db
        .selectFrom('loans')
        .select('work_id')
        .where('id', '=', loanId)
        .where('person_id', '=', personId)
        .executeTakeFirst();
      if (!target) return null;
      // One conditional UPDATE: of two concurrent returns exactly one changes the row.
      const returned = await db.transaction().execute(async (trx) => {
        // The work's lock first, as every circulation write (ADR 0059): the queue is settled below.
        const work = await lockWork(trx, target.work_id, capabilities, personId);
        const at = clock().toISOString();
        const row = await trx
          .updateTable('loans')
          .set({ returned_at: at })
          .where('id', '=', loanId)
          .where('person_id', '=', personId)
          .where('returned_at', 'is', null)
          .returning(['work_id', 'copy_id'])
          .executeTakeFirst();
        if (!row) return null;
        // The copy shows its status, the work `verfuegbar` and its copies: new versions (ADR 0024).
        if (row.copy_id !== null) await touchRows(trx, 'copies', [row.copy_id], at);
        await touchRows(trx, 'works', [row.work_id], at);
        // The copy is kept for the first in the work's queue, if anyone waits (ADR 0059).
        if (work) await settleWork(trx, work, at, holdDays);
        return loadLoan(trx, loanId);
      });
      if (returned) return { returned };
      const existing = await loan(personId, loanId);
      return existing === null ? null : { already: true };
    },

    async due(limit = DEFAULT_DUE_LIMIT) {
      const rows = await loansQuery(db)
        .where('loans.returned_at', 'is', null)
        .orderBy('loans.due_at')
        .orderBy('loans.id')
        .limit(Math.max(1, Math.min(limit, 10_000)))
        .execute();
      return rows.map(loanOf);
    },
  };
}
