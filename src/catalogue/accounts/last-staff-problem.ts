// 409 SHELFMARK_LAST_STAFF (docs/errors.md, ADR 0077): the store refused to leave the library
// without a usable staff account. English `detail` for API clients, German and English text for
// the HTML error page.
import { HttpError } from '../shared/index.ts';
import { LastStaffError } from './last-staff.ts';
import { accountStrings } from './strings.ts';

export function lastStaffProblem(): HttpError {
  return new HttpError('SHELFMARK_LAST_STAFF', {
    detail:
      'This is the last staff account: it cannot be deleted, locked or demoted, nor its person deleted. Make another account staff first.',
    localDetail: { de: accountStrings('de').lastStaff, en: accountStrings('en').lastStaff },
  });
}

/** The problem for a LastStaffError, else undefined (a write flow's `refusal`). */
export const lastStaffRefusal = (error: unknown): HttpError | undefined =>
  error instanceof LastStaffError ? lastStaffProblem() : undefined;
