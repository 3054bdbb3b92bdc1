// The "Vormerken" button of a work page: shown to a logged-in member when no copy is free; it
// posts to their own hold list by id (the script-style URL; the server checks everything again).
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { holdsPathById, queuePath } from './access.ts';
import { holdStrings } from './strings.ts';
import { RETURN_FIELD, SESSION_PATH } from '../session/index.ts';
import { workPath } from '../shared/index.ts';

export function holdButton(
  work: { readonly slug: string; readonly verfuegbar: number },
  ctx: RequestContext,
): Markup {
  const t = holdStrings(ctx.lang);
  if (ctx.user === null) {
    // Every copy is out: tell an anonymous visitor that signing in allows a hold.
    if (work.verfuegbar > 0) return html``;
    const back = `${SESSION_PATH}?${RETURN_FIELD}=${encodeURIComponent(workPath(work.slug))}`;
    return html`<p class="sign-in-hint">
      ${t.allLent} <a href="${ctx.links.relative(back)}">${t.signInToHold}</a>
    </p>`;
  }
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
