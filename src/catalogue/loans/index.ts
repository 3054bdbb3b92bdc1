// Loans (issue 4): who has borrowed what, borrowing and returning, the staff list of loans due.
export { loansResource, loanResource, type LoanResourceOptions } from './resource.ts';
export { createLoanStore, LOAN_DAYS, type LoanStoreOptions } from './store.ts';
export type {
  BorrowOutcome,
  BorrowRefusal,
  CurrentLoans,
  Loan,
  LoanStore,
  ReturnOutcome,
  WorkKey,
} from './model.ts';
export { loansPath, loanPath, DUE_PATH } from './access.ts';
export { borrowButton } from './borrow-button.ts';
export { createRenewalStore, MAX_RENEWALS, type RenewalStore, type RenewOutcome } from './renew.ts';
export { renewalResource, renewalPath } from './renewal-resource.ts';
export { borrowRefusal, invalidWerk } from './borrow-refusals.ts';
export { personHasLendingProblem } from './lending-problems.ts';
export { lendingStrings } from './lending-strings.ts';
export { loanRepresentation, renewForm, timeHtml } from './loan-view.ts';
export {
  PersonHasLendingError,
  openLendingOf,
  refuseWhileLending,
  type LendingClock,
  type OpenLending,
} from './open-lending.ts';
export { DEFAULT_OVERDUE_BLOCK_DAYS } from './overdue.ts';
export { dateText, loanStrings } from './strings.ts';
export { WERK_FIELD_PROBLEM, parseWerkField } from './werk-field.ts';
