// The "Vormerken" button of a work page: shown to a logged-in member when no copy is free; it
// posts to their own hold list by id (the script-style URL; the server checks everything again).
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { holdsPathById, queuePath } from './access.ts';
import { holdStrings } from './strings.ts';

export function holdButton(
  work: { readonly slug: string; readonly verfuegbar: number },
  ctx: RequestContext,
): Markup {
  if (ctx.user === null) return html``;
  const t = holdStrings(ctx.lang);
  const queue =
    ctx.user.role === 'staff'
      ? html`<p><a href="${ctx.links.relative(queuePath(work.slug))}">${t.queueLink}</a></p>`
      : '';
  if (work.verfuegbar > 0) return queue === '' ? html`` : queue;
  return html`<form class="place-hold" method="post" action="${ctx.links.relative(holdsPathById(ctx.user.id))}">
    ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
    <input type="hidden" name="werk" value="${work.slug}" />
    <button type="submit">${t.placeButton}</button>
  </form>${queue}`;
}
