// One copy (`/werke/{slug}/exemplare/{nummer}`): its work, number, shelfmark, barcode, location
// and status (staff also see who has it), with links to its work and the work's copies.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { copiesPath, copyPath, workPath } from '../shared/index.ts';
import {
  deleteConfirmationPage,
  deleteLink,
  formStrings,
  isStaff,
  staffToolsSection,
  versionFor,
  wantsDeleteConfirmation,
} from '../writes/index.ts';
import { copyFormValues, editCopyForm } from './forms.ts';
import type { Copy } from './model.ts';
import { statusHtml, statusJson, statusXml } from './status-view.ts';
import { copyStrings } from './strings.ts';

function staffTools(c: Copy, ctx: RequestContext): Markup {
  if (!isStaff(ctx)) return html``;
  const t = copyStrings(ctx.lang);
  const version = versionFor(ctx, copyRepresentation(c));
  return staffToolsSection(
    t.editCopy,
    editCopyForm(c, { values: copyFormValues(c), problems: [] }, version, ctx),
    deleteLink(copyPath(c.werk.slug, c.nummer), t.withdraw, ctx),
  );
}

function copyHtml(c: Copy, ctx: RequestContext): Markup {
  const t = copyStrings(ctx.lang);
  const path = copyPath(c.werk.slug, c.nummer);
  const title = t.copyTitle(c.signatur, c.werk.titel);
  if (wantsDeleteConfirmation(ctx))
    return deleteConfirmationPage(
      {
        path,
        name: title,
        consequence: formStrings(ctx.lang).cannotUndo,
        version: versionFor(ctx, copyRepresentation(c)),
        section: 'works',
      },
      ctx,
    );
  const rel = (p: string) => ctx.links.relative(p);
  const main = html`<article class="copy">
      <h1>${title}</h1>
      <dl class="facts">
        <dt>${t.work}</dt>
        <dd><a href="${rel(workPath(c.werk.slug))}">${c.werk.titel}</a></dd>
        <dt>${t.nummer}</dt>
        <dd>${c.nummer}</dd>
        <dt>${t.signatur}</dt>
        <dd class="signatur">${c.signatur}</dd>
        <dt>${t.barcode}</dt>
        <dd class="barcode">${c.barcode}</dd>
        <dt>${t.standort}</dt>
        <dd>${c.standort}</dd>
        <dt>${t.status}</dt>
        <dd>${statusHtml(c.status, ctx)}</dd>
      </dl>
      <p><a href="${rel(copiesPath(c.werk.slug))}">${t.all}</a></p>
    </article>
    ${staffTools(c, ctx)}`;
  return layout({ title, main, canonicalPath: path, section: 'works' }, ctx);
}

/** The copy's fields as XML elements (the copy itself and the lists share them). */
export function copyFieldsXml(c: Copy, ctx: RequestContext, indent: string): Markup {
  return xml`${indent}<nummer>${c.nummer}</nummer>
${indent}<signatur>${c.signatur}</signatur>
${indent}<barcode>${c.barcode}</barcode>
${indent}<standort>${c.standort}</standort>
${indent}<vermisst>${String(c.status.kind === 'vermisst')}</vermisst>${statusXml(c.status, ctx, indent)}`;
}

export function copyFieldsJson(c: Copy, ctx: RequestContext): Record<string, unknown> {
  return {
    nummer: c.nummer,
    signatur: c.signatur,
    barcode: c.barcode,
    standort: c.standort,
    vermisst: c.status.kind === 'vermisst',
    ...statusJson(c.status, ctx),
  };
}

function copyXml(c: Copy, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  return xml`<exemplar>
  <werk ref="${abs(workPath(c.werk.slug))}">${c.werk.titel}</werk>
  <exemplare ref="${abs(copiesPath(c.werk.slug))}"/>
${copyFieldsXml(c, ctx, '  ')}
</exemplar>`;
}

function copyJson(c: Copy, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    werk: { titel: c.werk.titel, url: abs(workPath(c.werk.slug)) },
    exemplare: abs(copiesPath(c.werk.slug)),
    ...copyFieldsJson(c, ctx),
  };
}

export const copyView: View<Copy> = { html: copyHtml, xml: copyXml, json: copyJson };

export function copyRepresentation(c: Copy): Representation<Copy> {
  return {
    model: c,
    view: copyView,
    canonicalPath: copyPath(c.werk.slug, c.nummer),
    lastModified: c.changedAt,
    // Kept for a hold: the status changes when the hold runs out, without a write (ADR 0067).
    ...(c.freshUntil && { freshUntil: c.freshUntil }),
    schema: 'copy',
    links: [{ rel: 'up', path: copiesPath(c.werk.slug) }],
  };
}
