// The loans feature's records and store contract. A loan row is never deleted: returning a
// book sets `returned_at`, so a person's past loans stay as history (docs/architecture.md).
import type { Lookup, PersonRef, WorkRef } from '../model.ts';

export interface Loan {
  readonly id: number;
  readonly person: PersonRef;
  readonly werk: WorkRef;
  readonly borrowedAt: Date;
  readonly dueAt: Date;
  /** Null while the loan is open. */
  readonly returnedAt: Date | null;
}

export interface CurrentLoans {
  /** Open loans, oldest first. */
  readonly items: readonly Loan[];
  /** Latest borrow or return of this person (any loan, also returned ones); null: never borrowed. */
  readonly lastChange: Date | null;
}

/** Which work to lend: by id, or by slug (an old slug is followed to the work it names now). */
export type WorkKey = { readonly id: number } | { readonly slug: string };

export type BorrowRefusal =
  /** Every copy is lent out. → 409 */
  | 'no-copy-free'
  /** This person already has this work. → 409 */
  | 'already-borrowed'
  /** No such work. → 422 */
  | 'unknown-work'
  /** The work was deleted. → 422 */
  | 'work-gone'
  /** The person has a loan overdue by more than the configured days (ADR 0061). → 409 */
  | 'overdue-loans'
  /** No such (live) person. → 404 */
  | 'unknown-person';

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
  /** Lends one copy, atomically: never more open loans than copies, never two of one work to one person. */
  borrow(personId: number, work: WorkKey): Promise<BorrowOutcome>;
  returnLoan(personId: number, loanId: number): Promise<ReturnOutcome>;
  /** Every open loan, earliest due date first (for staff), at most `limit`. */
  due(limit?: number): Promise<readonly Loan[]>;
}
