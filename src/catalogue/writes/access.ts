// Who may write, and how a write answers (docs/methods.md, docs/access.md).
import type { Handler, Outcome, Principal, RequestContext } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';

/** The 403 anyone but staff gets for a write to the catalogue; undefined for staff. */
export function staffRefusal(user: Principal | null): HttpError | undefined {
  if (user?.role === 'staff') return undefined;
  return new HttpError('SHELFMARK_FORBIDDEN', {
    detail:
      user === null
        ? 'Only staff may change the catalogue; please log in.'
        : 'Only staff may change the catalogue.',
    localDetail: {
      de: 'Nur das Personal darf den Katalog ändern.',
      en: 'Only staff may change the catalogue.',
    },
  });
}

/** Creating, changing and deleting persons and works is for staff; anyone else gets 403. */
export function requireStaff(ctx: RequestContext): void {
  const refusal = staffRefusal(ctx.user);
  if (refusal) throw refusal;
}

/**
 * A staff-only write handler that says so before the body is read: the layer answers anyone
 * else's request with the same 403 unread (refuseUnread, ADR 0077). `handler` must call
 * requireStaff before anything else it might answer.
 */
export function staffOnly(handler: (ctx: RequestContext) => Promise<Outcome>): Handler {
  return Object.assign(handler, { refuseUnread: staffRefusal });
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
