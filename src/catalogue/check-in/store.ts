// The desk's check-in by barcode (ADR 0061): which copy a scanned barcode names and its latest
// loan. The return itself goes through the loan store's returnLoan (one conditional UPDATE, so
// of two desks scanning one copy exactly one returns it).
import type { Kysely } from 'kysely';
import type { Loan } from '../loans/index.ts';
import type { DB } from '../tables.ts';

/** A copy and its latest loan, by ids: the loan store reads the loan itself (one shape of Loan). */
export interface CopyLoanRef {
  readonly barcode: string;
  readonly signatur: string;
  /** The copy's latest loan (open or returned); null when it was never lent. */
  readonly loan: { readonly personId: number; readonly loanId: number } | null;
  /** The member the copy is kept for on the hold shelf now (ADR 0059); null: nobody. */
  readonly keptFor: KeptFor | null;
}

/** Who a copy on the hold shelf is for, and until when they may pick it up. */
export interface KeptFor {
  readonly vorname: string;
  readonly nachname: string;
  readonly slug: string;
  readonly until: Date;
}

/** A copy and its latest loan as shown. */
export interface CopyLoan {
  readonly barcode: string;
  readonly signatur: string;
  readonly loan: Loan | null;
  /** Put it on the hold shelf for this member (check-in's "what next", ADR 0082). */
  readonly keptFor?: KeptFor | null;
}

export interface CheckInStore {
  /** The live copy with this barcode and its latest loan; null when no live copy has it. */
  copyLoan(barcode: string): Promise<CopyLoanRef | null>;
}

/** Barcodes as printed: at most 64 characters, trimmed (a scanner may add a newline). */
export function cleanBarcode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const barcode = value.trim();
  return barcode.length > 0 && barcode.length <= 64 ? barcode : null;
}

export function createCheckInStore(db: Kysely<DB>): CheckInStore {
  return {
    async copyLoan(barcode) {
      const copy = await db
        .selectFrom('copies')
        .select(['id', 'barcode', 'signatur'])
        .where('barcode', '=', barcode)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!copy) return null;
      const row = await db
        .selectFrom('loans')
        .select(['loans.id', 'loans.person_id'])
        .where('loans.copy_id', '=', copy.id)
        // An open loan first (there is at most one), else the latest returned one.
        .orderBy((eb) => eb.case().when('loans.returned_at', 'is', null).then(0).else(1).end())
        .orderBy('loans.borrowed_at', 'desc')
        .orderBy('loans.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      // The return settles the work's queue in its transaction (ADR 0059): an open hold that
      // names the copy is the member it is kept for.
      const hold = await db
        .selectFrom('holds')
        .innerJoin('persons', 'persons.id', 'holds.person_id')
        .select(['persons.vorname', 'persons.nachname', 'persons.slug', 'holds.expires_at'])
        .where('holds.copy_id', '=', copy.id)
        .where('holds.ended_at', 'is', null)
        .executeTakeFirst();
      return {
        barcode: copy.barcode,
        signatur: copy.signatur,
        loan: row ? { personId: row.person_id, loanId: row.id } : null,
        keptFor:
          hold && hold.expires_at !== null
            ? {
                vorname: hold.vorname,
                nachname: hold.nachname,
                slug: hold.slug,
                until: new Date(hold.expires_at),
              }
            : null,
      };
    },
  };
}
