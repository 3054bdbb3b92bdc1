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
