// A work's copies (`/werke/{slug}/exemplare`): each with number, shelfmark, barcode, location
// and status, linked to its own URL; staff get the form for a new copy.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import type { WorkRef } from '../model.ts';
import { earliestFreshUntil, copiesPath, copyPath, workPath } from '../shared/index.ts';
import { isStaff } from '../writes/index.ts';
import { copyFieldsJson, copyFieldsXml } from './copy-view.ts';
import { NEW_COPY_FORM, newCopyForm } from './forms.ts';
import type { Copy } from './model.ts';
import { statusHtml } from './status-view.ts';
import { copyStrings } from './strings.ts';

export interface CopiesModel {
  readonly werk: WorkRef;
  readonly items: readonly Copy[];
  /** The work's version (a copy withdrawn leaves nothing else behind) or a later copy change. */
  readonly changedAt: Date;
}

/** The table of copies, shared with the work's page. */
export function copiesTable(werk: WorkRef, items: readonly Copy[], ctx: RequestContext): Markup {
  const t = copyStrings(ctx.lang);
  if (items.length === 0) return html`<p>${t.none}</p>`;
  const rel = (p: string) => ctx.links.relative(p);
  return html`<table class="copies">
    <thead>
      <tr>
        <th scope="col">${t.signatur}</th>
        <th scope="col">${t.barcode}</th>
        <th scope="col">${t.standort}</th>
        <th scope="col">${t.status}</th>
      </tr>
    </thead>
    <tbody>
      ${items.map(
        (c) => html`<tr>
          <td data-label="${t.signatur}"><a href="${rel(copyPath(werk.slug, c.nummer))}">${c.signatur}</a></td>
          <td data-label="${t.barcode}">${c.barcode}</td>
          <td data-label="${t.standort}">${c.standort}</td>
          <td data-label="${t.status}">${statusHtml(c.status, ctx)}</td>
        </tr> `,
      )}
    </tbody>
  </table>`;
}

function copiesHtml(m: CopiesModel, ctx: RequestContext): Markup {
  const t = copyStrings(ctx.lang);
  const title = t.listTitle(m.werk.titel);
  const main = html`<article class="copies">
      <h1>${title}</h1>
      <p><a href="${ctx.links.relative(workPath(m.werk.slug))}">${m.werk.titel}</a></p>
      ${copiesTable(m.werk, m.items, ctx)}
    </article>
    ${
      isStaff(ctx)
        ? html`<section class="staff-tools">
            <details>
              <summary>${t.newCopy}</summary>
              ${newCopyForm(m.werk, NEW_COPY_FORM, ctx)}
            </details>
          </section>`
        : ''
    }`;
  return layout({ title, main, canonicalPath: copiesPath(m.werk.slug), section: 'works' }, ctx);
}

/** `<exemplar ref="…">` items, for the list and the work. */
export function copyItemsXml(
  werk: WorkRef,
  items: readonly Copy[],
  ctx: RequestContext,
  indent: string,
): Markup[] {
  return items.map(
    (c) => xml`
${indent}<exemplar ref="${ctx.links.absolute(copyPath(werk.slug, c.nummer))}">
${copyFieldsXml(c, ctx, `${indent}  `)}
${indent}</exemplar>`,
  );
}

export function copyItemsJson(werk: WorkRef, items: readonly Copy[], ctx: RequestContext): unknown[] {
  return items.map((c) => ({
    url: ctx.links.absolute(copyPath(werk.slug, c.nummer)),
    ...copyFieldsJson(c, ctx),
  }));
}

function copiesXml(m: CopiesModel, ctx: RequestContext): Markup {
  return xml`<exemplare>
  <werk ref="${ctx.links.absolute(workPath(m.werk.slug))}">${m.werk.titel}</werk>${copyItemsXml(m.werk, m.items, ctx, '  ')}
</exemplare>`;
}

function copiesJson(m: CopiesModel, ctx: RequestContext): unknown {
  return {
    werk: { titel: m.werk.titel, url: ctx.links.absolute(workPath(m.werk.slug)) },
    exemplar: copyItemsJson(m.werk, m.items, ctx),
  };
}

export const copiesView: View<CopiesModel> = { html: copiesHtml, xml: copiesXml, json: copiesJson };

/**
 * The earliest moment any of these copies' status changes without a write (a hold runs out,
 * ADR 0067), as a Representation's `freshUntil`; nothing when none is kept for a hold.
 */
export function freshUntilOf(items: readonly Copy[]): { freshUntil?: Date } {
  return earliestFreshUntil(items.map((c) => c.freshUntil));
}

export function copiesRepresentation(m: CopiesModel): Representation<CopiesModel> {
  return {
    model: m,
    view: copiesView,
    canonicalPath: copiesPath(m.werk.slug),
    lastModified: m.changedAt,
    ...freshUntilOf(m.items),
    schema: 'copies',
    links: [{ rel: 'up', path: workPath(m.werk.slug) }],
  };
}
