// Who may write, and how a write answers (docs/methods.md, docs/access.md).
import type { RequestContext } from '../../http/resource/types.ts';
import { HttpError } from '../shared/errors.ts';

/** Creating, changing and deleting persons and works is for staff; anyone else gets 403. */
export function requireStaff(ctx: RequestContext): void {
  if (ctx.user?.role === 'staff') return;
  throw new HttpError('SHELFMARK_FORBIDDEN', {
    detail:
      ctx.user === null
        ? 'Only staff may change the catalogue; please log in.'
        : 'Only staff may change the catalogue.',
    localDetail: {
      de: 'Nur das Personal darf den Katalog ändern.',
      en: 'Only staff may change the catalogue.',
    },
  });
}

/**
 * Whether to answer like a browser form expects: 303 after success (Post/Redirect/Get) and the
 * form page again on 422. That is a request whose body is an HTML form
 * (`application/x-www-form-urlencoded`) from a client that wants HTML; an API client sending
 * JSON or XML gets 201/200/204 whatever its Accept header (docs/decisions/0021-writing-persons-and-works.md).
 */
export function formFlow(ctx: RequestContext): boolean {
  return ctx.format === 'html' && ctx.bodyType === 'form';
}

/** Whether the request carried a body at all (a form DELETE does: `_method`, `_csrf`, `_version`). */
export function hasBody(ctx: RequestContext): boolean {
  return typeof ctx.body === 'object' && ctx.body !== null && Object.keys(ctx.body).length > 0;
}
