// The calendar of closed days as staff see and edit it (ADR 0093; schemas `closed-days`,
// `closed-day`). HTML: the list with a form that adds a day; a day's page with the form that
// changes its reason and the one that deletes it.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { dateText } from '../loans/index.ts';
import {
  EMPTY_FORM,
  errorSummary,
  field,
  hiddenFields,
  versionFor,
  type FormState,
} from '../writes/index.ts';
import { CLOSED_DAYS_PATH, ITEM_TYPES_PATH, closedDayPath } from './editing-paths.ts';
import type { ClosedDay } from './editing-store.ts';
import { rulesStrings } from './editing-strings.ts';

type Ctx = RequestContext;

const dayText = (day: string, ctx: Ctx) => dateText(new Date(`${day}T12:00:00.000Z`), ctx.lang);

export interface ClosedDaysModel {
  readonly days: readonly ClosedDay[];
  readonly state: FormState;
}

function closedDaysHtml(m: ClosedDaysModel, ctx: Ctx): Markup {
  const t = rulesStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const labels = { tag: t.day, anlass: t.reason };
  const main = html`<h1>${t.closedDaysTitle}</h1>
    <p>${t.dueMoves} <a href="${rel(ITEM_TYPES_PATH)}">${t.itemTypesTitle}</a></p>
    ${
      m.days.length === 0
        ? html`<p>${t.noDays}</p>`
        : html`<table class="closed-days">
            <thead>
              <tr>
                <th scope="col">${t.day}</th>
                <th scope="col">${t.reason}</th>
              </tr>
            </thead>
            <tbody>
              ${m.days.map(
                (d) => html`<tr>
                  <td><a href="${rel(closedDayPath(d.day))}"><time datetime="${d.day}">${dayText(d.day, ctx)}</time></a></td>
                  <td>${d.reason}</td>
                </tr>`,
              )}
            </tbody>
          </table>`
    }
    <section aria-labelledby="schliesstag-neu-ueberschrift">
      <h2 id="schliesstag-neu-ueberschrift">${t.newDay}</h2>
      <form class="write" method="post" action="${rel(CLOSED_DAYS_PATH)}">
        ${hiddenFields(ctx, 'POST', null)} ${errorSummary('schliesstag-neu', m.state, labels, ctx)}
        ${field('schliesstag-neu', { name: 'tag', label: t.day, required: true, hint: t.dayHint, maxLength: 10 }, m.state, ctx)}
        ${field('schliesstag-neu', { name: 'anlass', label: t.reason, maxLength: 200 }, m.state, ctx)}
        <button type="submit">${t.addDay}</button>
      </form>
    </section>`;
  return layout({ title: t.closedDaysTitle, main, canonicalPath: CLOSED_DAYS_PATH, section: 'rules' }, ctx);
}

const dayXml = (d: ClosedDay, ctx: Ctx) =>
  xml`<schliesstag ref="${ctx.links.absolute(closedDayPath(d.day))}"><tag>${d.day}</tag><anlass>${d.reason}</anlass></schliesstag>`;
const dayJson = (d: ClosedDay, ctx: Ctx) => ({
  url: ctx.links.absolute(closedDayPath(d.day)),
  tag: d.day,
  anlass: d.reason,
});

export const closedDaysView: View<ClosedDaysModel> = {
  html: closedDaysHtml,
  xml: (m, ctx) => xml`<schliesstage>${m.days.map((d) => dayXml(d, ctx))}</schliesstage>`,
  json: (m, ctx) => ({ schliesstage: m.days.map((d) => dayJson(d, ctx)) }),
};

export function closedDaysRepresentation(
  days: readonly ClosedDay[],
  state: FormState = EMPTY_FORM,
): Representation<ClosedDaysModel> {
  return {
    model: { days, state },
    view: closedDaysView,
    canonicalPath: CLOSED_DAYS_PATH,
    schema: 'closed-days',
  };
}

export interface ClosedDayModel {
  readonly day: ClosedDay;
  readonly state?: FormState;
}

function closedDayHtml(m: ClosedDayModel, ctx: Ctx): Markup {
  const t = rulesStrings(ctx.lang);
  const path = closedDayPath(m.day.day);
  const title = t.closedDayTitle(dayText(m.day.day, ctx));
  const version = versionFor(ctx, closedDayRepresentation(m.day));
  const state = m.state ?? { values: { anlass: m.day.reason }, problems: [] };
  const main = html`<h1>${title}</h1>
    <p><a href="${ctx.links.relative(CLOSED_DAYS_PATH)}">${t.closedDaysTitle}</a></p>
    <form class="write" method="post" action="${ctx.links.relative(path)}">
      ${hiddenFields(ctx, 'PUT', version)} ${errorSummary('schliesstag', state, { anlass: t.reason }, ctx)}
      ${field('schliesstag', { name: 'anlass', label: t.reason, maxLength: 200 }, state, ctx)}
      <button type="submit">${t.save}</button>
    </form>
    <form class="delete" method="post" action="${ctx.links.relative(path)}">
      ${hiddenFields(ctx, 'DELETE', version)}
      <button type="submit">${t.deleteDay}</button>
    </form>`;
  return layout({ title, main, canonicalPath: path, section: 'rules' }, ctx);
}

export const closedDayView: View<ClosedDayModel> = {
  html: closedDayHtml,
  xml: (m, ctx) => dayXml(m.day, ctx),
  json: (m, ctx) => dayJson(m.day, ctx),
};

export function closedDayRepresentation(day: ClosedDay, state?: FormState): Representation<ClosedDayModel> {
  return {
    model: { day, ...(state && { state }) },
    view: closedDayView,
    canonicalPath: closedDayPath(day.day),
    schema: 'closed-day',
    links: [{ rel: 'up', path: CLOSED_DAYS_PATH }],
  };
}
