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
