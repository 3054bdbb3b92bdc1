// The loans feature's records and store contract. A loan row is never deleted: returning a
// book sets `returned_at`, so a person's past loans stay as history (docs/architecture.md).
import type { Lookup, PersonRef, WorkRef } from '../model.ts';

/** The copy a loan lends (issue 12): its URL is the work's URL, `/exemplare/`, `nummer`. */
export interface LoanCopy {
  readonly id: number;
  readonly nummer: number;
  /** Shelfmark, e.g. `Goe 12 Fa`. */
  readonly signatur: string;
  readonly barcode: string;
}

export interface Loan {
  readonly id: number;
  readonly person: PersonRef;
  readonly werk: WorkRef;
  /** Null only for loans written by tools that predate copies (the bench loader). */
  readonly copy: LoanCopy | null;
  readonly borrowedAt: Date;
  readonly dueAt: Date;
  /** Null while the loan is open. */
  readonly returnedAt: Date | null;
  /** How often it was renewed (ADR 0060); absent: never (records made without the store). */
  readonly renewals?: number;
  /** When it was last renewed; null or absent: never. */
  readonly renewedAt?: Date | null;
}

export interface CurrentLoans {
  /** Open loans, oldest first. */
  readonly items: readonly Loan[];
  /** Latest borrow or return of this person (any loan, also returned ones); null: never borrowed. */
  readonly lastChange: Date | null;
}

/** Which work to lend: by id, or by slug (an old slug is followed to the work it names now). */
export type WorkKey = { readonly id: number } | { readonly slug: string };

/** A borrow of one particular copy (the desk scans it, ADR 0082): its id, a copy of the work. */
export interface BorrowOptions {
  readonly copyId?: number;
}

export type BorrowRefusal =
  /** No copy is free (lent out, held or missing). → 409 */
  | 'no-copy-free'
  /** This person already has this work. → 409 */
  | 'already-borrowed'
  /** No such work. → 422 */
  | 'unknown-work'
  /** The work was deleted. → 422 */
  | 'work-gone'
  /** The person has a loan overdue by more than the configured days (ADR 0061). → 409 */
  | 'overdue-loans'
  /** The copy's item type is not for loan (ADR 0084). → 409 SHELFMARK_NOT_LENDABLE */
  | 'not-lendable'
  /** The member has as many open loans as allowed, in all or of the item type (ADR 0084). → 409 SHELFMARK_LOAN_LIMIT */
  | 'loan-limit'
  /** No such (live) person. → 404 */
  | 'unknown-person'
  /** The copy asked for is not a live copy of the work (ADR 0082). → 422 */
  | 'unknown-copy'
  /** The copy asked for is on loan. → 409 */
  | 'copy-on-loan'
  /** The copy asked for is kept on the hold shelf for another member. → 409 */
  | 'copy-held';

export type BorrowOutcome =
  { readonly ok: true; readonly loan: Loan } | { readonly ok: false; readonly reason: BorrowRefusal };

/** Returning: the returned loan, `already` when it was returned before (→ 410), null when unknown. */
export type ReturnOutcome = { readonly returned: Loan } | { readonly already: true } | null;

export interface LoanStore {
  /** The person a loan list belongs to: live, deleted (gone) or unknown (null). */
  person(id: number): Promise<Lookup<PersonRef>>;
  currentLoans(personId: number): Promise<CurrentLoans>;
  /** One loan of this person, open or returned; null when the person has no loan with that id. */
  loan(personId: number, loanId: number): Promise<Loan | null>;
  /**
   * Lends one free copy (copies/free.ts), atomically: never one copy in two open loans, never
   * two of one work to one person.
   */
  borrow(personId: number, work: WorkKey, options?: BorrowOptions): Promise<BorrowOutcome>;
  returnLoan(personId: number, loanId: number): Promise<ReturnOutcome>;
  /** Every open loan, earliest due date first (for staff), at most `limit`. */
  due(limit?: number): Promise<readonly Loan[]>;
}
