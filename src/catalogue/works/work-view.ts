// The work resource: title, year, its persons (linked), copies and available copies.
// A work without a known year has no <jahr> in XML and `"jahr": null` in JSON.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { layout } from '../layout/index.ts';
import type { Work } from '../model.ts';
import { copiesPath, fullName, personPath, workPath, suffixPath } from '../shared/index.ts';
import { mediaTypeOf } from '../../http/negotiation/index.ts';
import { workBibtex, workRis } from '../citations/index.ts';
import { workJsonLd } from '../linked-data/index.ts';
import {
  deleteConfirmationPage,
  deleteLink,
  formStrings,
  isStaff,
  staffToolsSection,
  versionFor,
  wantsDeleteConfirmation,
} from '../writes/index.ts';
import { editWorkForm, workFormValues } from './forms.ts';
import { borrowButton, lendingStrings } from '../loans/index.ts';
import { holdButton } from '../holds/index.ts';
import { copiesTable, copyItemsJson, copyItemsXml, freshUntilOf, copyStrings } from '../copies/index.ts';

/** Edit and delete forms, for staff only (the server checks access on the write anyway). */
function staffTools(w: Work, ctx: RequestContext): Markup {
  if (!isStaff(ctx)) return html``;
  const t = formStrings(ctx.lang);
  const version = versionFor(ctx, workRepresentation(w));
  return staffToolsSection(
    t.edit,
    editWorkForm(w, { values: workFormValues(w), problems: [] }, version, ctx),
    deleteLink(workPath(w.slug), t.deleteWork, ctx),
  );
}

function cannotDeleteWorkPage(w: Work, lent: number, ctx: RequestContext): Markup {
  const t = lendingStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const title = t.cannotDeleteTitle(w.titel);
  const main = html`<article class="confirm-delete blocked">
    <h1>${title}</h1>
    <p class="reason">${t.workHasLoans(lent)}</p>
    <p>
      <a href="${rel(copiesPath(w.slug))}">${t.toCopies}</a>
      · <a class="cancel" href="${rel(workPath(w.slug))}">${t.back}</a>
    </p>
  </article>`;
  return layout({ title, main, canonicalPath: workPath(w.slug), section: 'works' }, ctx);
}

function workHtml(w: Work, ctx: RequestContext): Markup {
  const t = strings(ctx.lang);
  if (wantsDeleteConfirmation(ctx)) {
    // A work with a copy on loan is not deleted (409, ADR 0058): say so up front instead of a
    // button that can only be refused (as a person's page does, ADR 0061).
    const lent = (w.copies ?? []).filter((c) => c.status.kind === 'ausgeliehen').length;
    if (lent > 0) return cannotDeleteWorkPage(w, lent, ctx);
    return deleteConfirmationPage(
      {
        path: workPath(w.slug),
        name: w.titel,
        consequence: formStrings(ctx.lang).workDeleted,
        version: versionFor(ctx, workRepresentation(w)),
        section: 'works',
      },
      ctx,
    );
  }
  const main = html`<article class="work">
    <h1>${w.titel}</h1>
    <dl class="facts">
      <dt>${t.year}</dt>
      <dd>${w.jahr ?? t.unknownYear}</dd>
      <dt>${t.persons}</dt>
      <dd>
        ${
          w.personen.length > 0
            ? html`<ul class="inline-list">
                ${w.personen.map(
                  (p) =>
                    html`<li><a href="${ctx.links.relative(personPath(p.slug))}">${fullName(p)}</a></li>`,
                )}
              </ul>`
            : '–'
        }
      </dd>
      <dt>${t.copies}</dt>
      <dd>${w.exemplare}</dd>
      <dt>${t.available}</dt>
      <dd><span class="availability${w.verfuegbar > 0 ? '' : ' none'}">${w.verfuegbar}</span></dd>
    </dl>
    ${borrowButton(w, ctx)} ${holdButton(w, ctx)}
    ${
      w.copies
        ? html`<section class="copies" aria-labelledby="exemplare-ueberschrift">
            <h2 id="exemplare-ueberschrift">
              <a href="${ctx.links.relative(copiesPath(w.slug))}">${copyStrings(ctx.lang).heading}</a>
            </h2>
            ${copiesTable(w, w.copies, ctx)}
          </section>`
        : ''
    }
  </article>
  ${staffTools(w, ctx)}`;
  return layout(
    {
      title: w.titel,
      main,
      canonicalPath: workPath(w.slug),
      section: 'works',
      alternates: CITATIONS.map((c) => ({ ...c, path: suffixPath(workPath(w.slug), c.format) })),
      jsonLd: workJsonLd(w, t.siteName, ctx.links),
    },
    ctx,
  );
}

/** The work's citations (ADR 0095): its RIS and BibTeX representations. */
const CITATIONS = [
  { format: 'ris', type: mediaTypeOf('ris'), label: 'RIS' },
  { format: 'bib', type: mediaTypeOf('bib'), label: 'BibTeX' },
] as const;

function workXml(w: Work, ctx: RequestContext): Markup {
  const persons = w.personen.map(
    (p) => xml`\n    <person ref="${ctx.links.absolute(personPath(p.slug))}">${fullName(p)}</person>`,
  );
  return xml`<werk>
  <titel>${w.titel}</titel>${w.jahr !== null ? xml`\n  <jahr>${w.jahr}</jahr>` : ''}
  ${persons.length > 0 ? xml`<personen>${persons}\n  </personen>` : xml`<personen/>`}
  <exemplare>${w.exemplare}</exemplare>
  <verfuegbar>${w.verfuegbar}</verfuegbar>${
    w.copies
      ? xml`
  <bestand ref="${ctx.links.absolute(copiesPath(w.slug))}">${copyItemsXml(w, w.copies, ctx, '    ')}
  </bestand>`
      : ''
  }
</werk>`;
}

function workJson(w: Work, ctx: RequestContext): unknown {
  return {
    titel: w.titel,
    jahr: w.jahr,
    person: w.personen.map((p) => ({ name: fullName(p), url: ctx.links.absolute(personPath(p.slug)) })),
    exemplare: w.exemplare,
    verfuegbar: w.verfuegbar,
    ...(w.copies && {
      bestand: { url: ctx.links.absolute(copiesPath(w.slug)), exemplar: copyItemsJson(w, w.copies, ctx) },
    }),
  };
}

export const workView: View<Work> = {
  html: workHtml,
  xml: workXml,
  json: workJson,
  ris: workRis,
  bib: workBibtex,
};

/** The work resource's representation: what GET sends and what preconditions compare. */
export function workRepresentation(work: Work): Representation<Work> {
  return {
    model: work,
    view: workView,
    canonicalPath: workPath(work.slug),
    // A copy's status can change after the work's last write (a renewal, a hold made ready, a
    // hold that ran out), and `verfuegbar` and the buttons with it: until then it is fresh.
    lastModified: new Date(
      Math.max(work.updatedAt.getTime(), ...(work.copies ?? []).map((c) => c.changedAt.getTime())),
    ),
    ...freshUntilOf(work.copies ?? []),
    schema: 'work',
    links: CITATIONS.map((c) => ({
      rel: 'alternate',
      path: suffixPath(workPath(work.slug), c.format),
      type: c.type,
    })),
  };
}
