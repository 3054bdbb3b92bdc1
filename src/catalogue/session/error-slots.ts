// The log-in form on HTML error pages: a 403 (not allowed — perhaps after logging in, docs/access.md)
// and a 401 (a failed log-in, shown again with its message). Not on a CSRF refusal: logging in
// would not help there, reloading the form would.
import { html } from '../../http/representation/markup.ts';
import type { ErrorPageContext, Problem } from '../../http/errors/index.ts';
import type { ErrorPageSlots } from '../layout/index.ts';
import { loginForm } from './form.ts';
import { RETURN_FIELD, returnPathOf, safeReturnPath, SESSION_PATH } from './return-path.ts';
import { sessionStrings } from './strings.ts';

function returnTo(ctx: ErrorPageContext): string {
  if (ctx.path === SESSION_PATH) return safeReturnPath(ctx.query?.get(RETURN_FIELD)) ?? '/';
  return returnPathOf(ctx.path || '/', ctx.query);
}

export const sessionErrorSlots: ErrorPageSlots = {
  forbidden(problem: Problem, ctx: ErrorPageContext) {
    if (problem.code === 'SHELFMARK_CSRF_FAILED') return html``;
    const t = sessionStrings(ctx.lang);
    const intro = ctx.user ? t.forbiddenLoggedIn(ctx.user.username) : t.forbiddenAnonymous;
    return html`<p>${intro}</p>
      ${loginForm(ctx, returnTo(ctx), 'anmeldung-fehler')}`;
  },
  unauthorized(_problem: Problem, ctx: ErrorPageContext) {
    return loginForm(ctx, returnTo(ctx), 'anmeldung-fehler');
  },
};
