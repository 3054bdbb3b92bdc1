// Deleting asks first (docs/decisions/0028-delete-confirmation-page.md). A person's or work's
// page offers staff a plain link to `?loeschen`, a safe GET that shows the same resource as a
// confirmation page: what will be deleted, the DELETE form (POST + `_method=DELETE`, the CSRF
// token and the resource's `_version`) and a way back. No script and no inline handler: the
// page works without JavaScript and under a Content-Security-Policy without 'unsafe-inline'.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { layout, type Page } from '../layout/index.ts';
import { hiddenFields, isStaff } from './form-html.ts';
import { formStrings } from './strings.ts';

/** The query parameter that turns a resource's HTML page into its delete confirmation. */
export const CONFIRM_DELETE_PARAM = 'loeschen';

/** Whether this request asks for the confirmation page (staff only; others see the page). */
export function wantsDeleteConfirmation(ctx: RequestContext): boolean {
  return isStaff(ctx) && ctx.query.has(CONFIRM_DELETE_PARAM);
}

/** The link on the resource's page that leads to the confirmation. */
export function deleteLink(path: string, label: string, ctx: RequestContext): Markup {
  return html`<p class="delete">
    <a class="delete" href="${ctx.links.relative(path)}?${CONFIRM_DELETE_PARAM}">${label}</a>
  </p>`;
}

export interface DeleteConfirmation {
  /** The resource's canonical path: the form's action and the way back. */
  readonly path: string;
  /** What is deleted, as people call it (a person's name, a work's title). */
  readonly name: string;
  /** One sentence on what deleting means for this kind of resource. */
  readonly consequence: string;
  readonly version: string | null;
  readonly section: Page['section'];
}

export function deleteConfirmationPage(c: DeleteConfirmation, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  const title = t.confirmDeleteTitle(c.name);
  const rel = ctx.links.relative(c.path);
  const main = html`<article class="confirm-delete">
    <h1>${title}</h1>
    <p>${c.consequence} ${t.cannotUndo}</p>
    <form class="delete" method="post" action="${rel}">
      ${hiddenFields(ctx, 'DELETE', c.version)}
      <button type="submit">${t.confirmDeleteButton}</button>
      <a class="cancel" href="${rel}">${t.cancel}</a>
    </form>
  </article>`;
  return layout({ title, main, canonicalPath: c.path, section: c.section }, ctx);
}
