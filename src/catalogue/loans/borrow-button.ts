// The "Ausleihen" button of a work page: a logged-in user borrows the work for themselves
// (POST to their loan list; the server checks access and copies again).
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { loansPath } from './access.ts';
import { loanStrings } from './strings.ts';

export function borrowButton(
  work: { readonly slug: string; readonly verfuegbar: number },
  ctx: RequestContext,
): Markup {
  if (ctx.user === null || work.verfuegbar <= 0) return html``;
  return html`<form class="borrow" method="post" action="${ctx.links.relative(loansPath(ctx.user.id))}">
    ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
    <input type="hidden" name="werk" value="${work.slug}" />
    <button type="submit">${loanStrings(ctx.lang).borrowButton}</button>
  </form>`;
}
