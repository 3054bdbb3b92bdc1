// The desk's check-in by barcode (ADR 0061): which copy a scanned barcode names and its latest
// loan. The return itself goes through the loan store's returnLoan (one conditional UPDATE, so
// of two desks scanning one copy exactly one returns it).
import type { Kysely } from 'kysely';
import type { Loan } from '../loans/model.ts';
import type { DB } from '../tables.ts';

/** A copy and its latest loan, by ids: the loan store reads the loan itself (one shape of Loan). */
export interface CopyLoanRef {
  readonly barcode: string;
  readonly signatur: string;
  /** The copy's latest loan (open or returned); null when it was never lent. */
  readonly loan: { readonly personId: number; readonly loanId: number } | null;
}

/** A copy and its latest loan as shown. */
export interface CopyLoan {
  readonly barcode: string;
  readonly signatur: string;
  readonly loan: Loan | null;
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
      return {
        barcode: copy.barcode,
        signatur: copy.signatur,
        loan: row ? { personId: row.person_id, loanId: row.id } : null,
      };
    },
  };
}
