// The lending rules' refusals as problem details (docs/errors.md, ADR 0061): English `detail`
// for API clients, German and English text for the HTML error page.
import { HttpError } from '../shared/errors.ts';
import type { PersonHasLendingError } from './open-lending.ts';
import { lendingStrings } from './strings.ts';

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
