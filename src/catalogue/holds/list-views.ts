// A member's holds (`/personen/{slug}/vormerkungen`, with the form to place one) and a work's
// queue for staff (`/werke/{slug}/vormerkungen`): tables of holds as of the request's moment.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, loansTable } from '../layout/index.ts';
import { loansPath } from '../loans/index.ts';
import type { PersonRef, WorkRef } from '../model.ts';
import { fullName, personPath, workPath } from '../shared/index.ts';
import { holdPath, holdsPath, queuePath } from './access.ts';
import { cancelForm, holdJson, holdXmlFields, statusHtml, timeHtml } from './hold-view.ts';
import type { Hold } from './model.ts';
import { holdStrings } from './strings.ts';

export interface HoldsModel {
  readonly person: PersonRef;
  readonly items: readonly Hold[];
  /** Days a copy is kept, for the hint beside the form. */
  readonly holdDays: number;
}

export interface QueueModel {
  readonly werk: WorkRef;
  readonly items: readonly Hold[];
}

function placeForm(m: HoldsModel, ctx: RequestContext): Markup {
  const t = holdStrings(ctx.lang);
  return html`<section class="place-hold">
    <h2>${t.placeHeading}</h2>
    <form method="post" action="${ctx.links.relative(holdsPath(m.person.slug))}">
      ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
      <p>
        <label for="werk">${t.placeLabel}</label>
        <input id="werk" name="werk" type="text" required maxlength="2048" autocomplete="off" />
        <button type="submit">${t.placeButton}</button>
      </p>
      <p class="hint">${t.placeHint(m.holdDays)}</p>
    </form>
  </section>`;
}

function holdsHtml(m: HoldsModel, ctx: RequestContext): Markup {
  const t = holdStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const name = fullName(m.person);
  const forms = ctx.user !== null;
  const rows = m.items.map(
    (hold) => html`<tr>
      <td data-label="${t.work}"><a href="${rel(workPath(hold.werk.slug))}">${hold.werk.titel}</a></td>
      <td data-label="${t.placed}">
        <a href="${rel(holdPath(hold.person.slug, hold.id))}">${timeHtml(hold.placedAt, ctx)}</a>
      </td>
      <td data-label="${t.status}">${statusHtml(hold, ctx)}</td>
      ${forms ? html`<td class="actions">${cancelForm(hold, ctx)}</td>` : ''}
    </tr> `,
  );
  const main = html`<article class="holds">
    <h1>${t.listTitle(name)}</h1>
    <p>
      <a href="${rel(personPath(m.person.slug))}">${name}</a> ·
      <a href="${rel(loansPath(m.person.id))}">${t.loans}</a>
    </p>
    ${
      m.items.length > 0
        ? loansTable([t.work, t.placed, t.status, ...(forms ? [t.actions] : [])], rows)
        : html`<p>${t.none}</p>`
    }
    ${forms ? placeForm(m, ctx) : ''}
  </article>`;
  return layout({ title: t.listTitle(name), main, canonicalPath: holdsPath(m.person.slug) }, ctx);
}

const itemsXml = (items: readonly Hold[], ctx: RequestContext) =>
  items.map(
    (hold) => xml`
  <vormerkung ref="${ctx.links.absolute(holdPath(hold.person.slug, hold.id))}">${holdXmlFields(hold, ctx)}
  </vormerkung>`,
  );

export const holdsView: View<HoldsModel> = {
  html: holdsHtml,
  xml: (m, ctx) => xml`<vormerkungen>
  <person ref="${ctx.links.absolute(personPath(m.person.slug))}">${fullName(m.person)}</person>${itemsXml(m.items, ctx)}
</vormerkungen>`,
  json: (m, ctx) => ({
    person: { name: fullName(m.person), url: ctx.links.absolute(personPath(m.person.slug)) },
    vormerkung: m.items.map((h) => holdJson(h, ctx)),
  }),
};

function queueHtml(m: QueueModel, ctx: RequestContext): Markup {
  const t = holdStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const rows = m.items.map(
    (hold) => html`<tr>
      <td data-label="${t.person}"><a href="${rel(holdPath(hold.person.slug, hold.id))}">${fullName(hold.person)}</a></td>
      <td data-label="${t.placed}">${timeHtml(hold.placedAt, ctx)}</td>
      <td data-label="${t.status}">${statusHtml(hold, ctx)}</td>
      <td class="actions">${cancelForm(hold, ctx)}</td>
    </tr> `,
  );
  const main = html`<article class="queue">
    <h1>${t.queueTitle(m.werk.titel)}</h1>
    <p><a href="${rel(workPath(m.werk.slug))}">${m.werk.titel}</a></p>
    ${
      m.items.length > 0
        ? loansTable([t.person, t.placed, t.status, t.actions], rows)
        : html`<p>${t.queueEmpty}</p>`
    }
  </article>`;
  return layout({ title: t.queueTitle(m.werk.titel), main, canonicalPath: queuePath(m.werk.slug) }, ctx);
}

export const queueView: View<QueueModel> = {
  html: queueHtml,
  xml: (m, ctx) => xml`<warteschlange>
  <werk ref="${ctx.links.absolute(workPath(m.werk.slug))}">${m.werk.titel}</werk>${itemsXml(m.items, ctx)}
</warteschlange>`,
  json: (m, ctx) => ({
    werk: { titel: m.werk.titel, url: ctx.links.absolute(workPath(m.werk.slug)) },
    vormerkung: m.items.map((h) => holdJson(h, ctx)),
  }),
};
