// Who may see and change a person's loans (docs/access.md): that person and staff.
// Everyone else — another member or an anonymous client — gets 403, and so does a request for
// a user id that does not exist, unless it comes from staff (404): existence is not leaked.
import type { RequestContext } from '../../http/resource/types.ts';
import { HttpError, parseId } from '../shared/index.ts';
import { pathBuilder, routeOf } from '../registry/index.ts';

/** A positive integer query parameter, or null when absent or malformed. */
export function idParam(ctx: RequestContext, name: string): number | null {
  return parseId(ctx.query.get(name));
}

export function forbidden(ctx: RequestContext): HttpError {
  return new HttpError('SHELFMARK_FORBIDDEN', {
    detail:
      ctx.user === null
        ? 'Loans can only be seen by their borrower and by staff: please log in.'
        : 'Loans can only be seen by their borrower and by staff.',
    localDetail: {
      de: 'Ausleihen sehen nur die Person, die ausgeliehen hat, und das Personal.',
      en: 'Loans can only be seen by their borrower and by staff.',
    },
  });
}

/** Throws 403 unless the requester is the person `personId` (null: no valid id) or staff. */
export function requireOwnerOrStaff(ctx: RequestContext, personId: number | null): void {
  if (ctx.user === null) throw forbidden(ctx);
  if (ctx.user.role === 'staff') return;
  if (personId !== null && ctx.user.id === personId) return;
  throw forbidden(ctx);
}

export function requireStaff(ctx: RequestContext): void {
  if (ctx.user?.role !== 'staff') {
    throw new HttpError('SHELFMARK_FORBIDDEN', {
      detail: 'The list of loans due is for staff only.',
      localDetail: {
        de: 'Die Liste der fälligen Ausleihen ist nur für das Personal.',
        en: 'The list of loans due is for staff only.',
      },
    });
  }
}

export const loansPath: (personId: number) => string = pathBuilder('Loans');
export const loanPath: (personId: number, loanId: number) => string = pathBuilder('Loan');
export const DUE_PATH = routeOf('DueLoans');
/** A loan's renewal: POST renews it (ADR 0060). */
export const renewalPath: (personId: number, loanId: number) => string = pathBuilder('Renewal');
