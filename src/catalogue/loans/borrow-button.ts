// The "Ausleihen" button of a work page. A member borrows the work for themselves (POST to their
// loan list); staff lend it to a patron they name by library card number (POST to the desk,
// ADR 0082) — never to themselves. The server checks access and copies again.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { DESK_PATH, deskStrings } from '../desk/index.ts';
import { loansPath } from './access.ts';
import { loanStrings } from './strings.ts';

export function borrowButton(
  work: { readonly slug: string; readonly verfuegbar: number },
  ctx: RequestContext,
): Markup {
  if (ctx.user === null || work.verfuegbar <= 0) return html``;
  const csrf =
    ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : '';
  if (ctx.user.role === 'staff') {
    const t = deskStrings(ctx.lang);
    return html`<form class="borrow" method="post" action="${ctx.links.relative(DESK_PATH)}">
      ${csrf}
      <input type="hidden" name="werk" value="${work.slug}" />
      <label for="ausleihen-ausweis">${t.lendToCard}</label>
      <input id="ausleihen-ausweis" name="ausweis" type="text" required maxlength="100" autocomplete="off" />
      <button type="submit">${loanStrings(ctx.lang).borrowButton}</button>
    </form>`;
  }
  return html`<form class="borrow" method="post" action="${ctx.links.relative(loansPath(ctx.user.id))}">
    ${csrf}
    <input type="hidden" name="werk" value="${work.slug}" />
    <button type="submit">${loanStrings(ctx.lang).borrowButton}</button>
  </form>`;
}
