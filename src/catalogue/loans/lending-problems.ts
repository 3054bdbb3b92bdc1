// The lending rules' refusals as problem details (docs/errors.md, ADR 0061): English `detail`
// for API clients, German and English text for the HTML error page.
import { HttpError } from '../shared/index.ts';
import type { PersonHasLendingError } from './open-lending.ts';
import { lendingStrings } from './lending-strings.ts';

/** 409: a person with open loans or holds is not deleted. */
export function personHasLendingProblem(error: PersonHasLendingError): HttpError {
  const open = { loans: error.loans, holds: error.holds };
  return new HttpError('SHELFMARK_PERSON_HAS_LOANS', {
    detail: `This person cannot be deleted: ${lendingStrings('en').openLending(open)}.`,
    localDetail: {
      de: lendingStrings('de').cannotDelete(open),
      en: lendingStrings('en').cannotDelete(open),
    },
  });
}

/** 409: a loan overdue by more than the configured days blocks borrowing. */
export function overdueLoansProblem(days: number): HttpError {
  return new HttpError('SHELFMARK_OVERDUE_LOANS', {
    detail: `Overdue loans block borrowing: a loan is overdue by more than ${days} days. Return it first.`,
    localDetail: {
      de: lendingStrings('de').overdueBlocks(days),
      en: lendingStrings('en').overdueBlocks(days),
    },
  });
}

/** 403: a member's own return while returns are checked in by staff (SHELFMARK_MEMBER_RETURNS off). */
export function deskReturnsProblem(): HttpError {
  return new HttpError('SHELFMARK_FORBIDDEN', {
    detail: 'Returns are checked in at the desk: please bring the copy to the library.',
    localDetail: { de: lendingStrings('de').returnAtDesk, en: lendingStrings('en').returnAtDesk },
  });
}

/** 409: the copy's item type is not for loan (reference stock; ADR 0084). */
export function notLendableProblem(): HttpError {
  return new HttpError('SHELFMARK_NOT_LENDABLE', {
    detail: 'This copy is for use in the library only (its item type is not for loan).',
    localDetail: { de: lendingStrings('de').notLendable, en: lendingStrings('en').notLendable },
  });
}

/** 409: the member has as many open loans as allowed, in all or of the copy's item type (ADR 0084). */
export function loanLimitProblem(): HttpError {
  return new HttpError('SHELFMARK_LOAN_LIMIT', {
    detail: 'This member has as many open loans as allowed (in all or of this item type). Return one first.',
    localDetail: { de: lendingStrings('de').loanLimit, en: lendingStrings('en').loanLimit },
  });
}
