// Who may see and change a member's holds (docs/access.md): that member and staff; a work's queue
// is for staff. Everyone else — another member or an anonymous client — gets 403, also for a
// person that does not exist (only staff learn 404/410), as for loans (loans/access.ts).
import type { RequestContext } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';
import { pathBuilder, routeOf } from '../registry/index.ts';

export const holdsPath: (personSlug: string) => string = pathBuilder('Holds');
export const holdPath: (personSlug: string, holdId: number) => string = pathBuilder('Hold');
export const queuePath: (workSlug: string) => string = pathBuilder('HoldQueue');
/** The script-style list URL by person id: what a work page's "Vormerken" button posts to. */
export const holdsPathById = (personId: number): string => `${routeOf('Holds')}?id=${personId}`;

export function forbidden(ctx: RequestContext, what: 'holds' | 'queue'): HttpError {
  const detail =
    what === 'holds'
      ? 'Holds can only be seen by the member who placed them and by staff.'
      : 'The queue of a work is for staff only.';
  return new HttpError('SHELFMARK_FORBIDDEN', {
    detail: ctx.user === null ? `${detail} Please log in.` : detail,
    localDetail: {
      de:
        what === 'holds'
          ? 'Vormerkungen sehen nur die Person, die vorgemerkt hat, und das Personal.'
          : 'Die Warteschlange eines Werks ist nur für das Personal.',
      en: detail,
    },
  });
}

export const isStaff = (ctx: RequestContext): boolean => ctx.user?.role === 'staff';

/** Throws 403 unless the requester is the person `personId` (null: none found) or staff. */
export function requireMemberOrStaff(ctx: RequestContext, personId: number | null): void {
  if (ctx.user === null) throw forbidden(ctx, 'holds');
  if (isStaff(ctx)) return;
  if (personId !== null && ctx.user.id === personId) return;
  throw forbidden(ctx, 'holds');
}
