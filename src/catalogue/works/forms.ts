// The HTML forms that write works: "Neues Werk" on the collection page, the edit and delete
// forms on the work's page (staff only; the server checks access anyway), and the page that
// shows a form again with its problems (422).
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import type { Work } from '../model.ts';
import { workPath, WORKS_PATH } from '../shared/index.ts';
import {
  errorSummary,
  field,
  formPageView,
  formStrings,
  hiddenFields,
  type FormState,
} from '../writes/index.ts';
import { TITLE_MAX } from './input.ts';

function labels(ctx: RequestContext): Record<string, string> {
  const t = formStrings(ctx.lang);
  return { titel: t.titel, jahr: t.jahr, exemplare: t.exemplare, person: t.person };
}

function fields(prefix: string, state: FormState, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  const l = labels(ctx);
  return html`${errorSummary(prefix, state, l, ctx)}
    ${field(prefix, { name: 'titel', label: l.titel!, required: true, maxLength: TITLE_MAX }, state, ctx)}
    ${field(prefix, { name: 'jahr', label: l.jahr!, kind: 'numeric' }, state, ctx)}
    ${field(prefix, { name: 'exemplare', label: l.exemplare!, kind: 'numeric' }, state, ctx)}
    ${field(prefix, { name: 'person', label: l.person!, kind: 'lines', hint: t.personHint }, state, ctx)}`;
}

/** The current values of a work, as the edit form shows them (persons by slug, one per line). */
export function workFormValues(w: Work): Record<string, string> {
  return {
    titel: w.titel,
    jahr: w.jahr === null ? '' : String(w.jahr),
    exemplare: String(w.exemplare),
    person: w.personen.map((p) => p.slug).join('\n'),
  };
}

/** A new work has one copy unless the form says otherwise. */
export const NEW_WORK_FORM: FormState = { values: { exemplare: '1' }, problems: [] };

export function newWorkForm(state: FormState, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  return html`<form class="write" method="post" action="${ctx.links.relative(WORKS_PATH)}" novalidate>
    ${hiddenFields(ctx, 'POST', null)} ${fields('neu', state, ctx)}
    <button type="submit">${t.create}</button>
  </form>`;
}

export function editWorkForm(w: Work, state: FormState, version: string | null, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  return html`<form class="write" method="post" action="${ctx.links.relative(workPath(w.slug))}" novalidate>
    ${hiddenFields(ctx, 'PUT', version)} ${fields('bearbeiten', state, ctx)}
    <button type="submit">${t.save}</button>
  </form>`;
}

/** What the 422 page of a work form shows. */
export interface WorkFormModel {
  readonly mode: 'new' | 'edit';
  readonly work?: Work;
  readonly version: string | null;
  readonly state: FormState;
}

export const workFormView = formPageView<WorkFormModel>((m, ctx) => {
  const t = formStrings(ctx.lang);
  const title = m.mode === 'edit' && m.work ? t.editWork(m.work.titel) : t.newWork;
  const form =
    m.mode === 'edit' && m.work ? editWorkForm(m.work, m.state, m.version, ctx) : newWorkForm(m.state, ctx);
  return {
    title,
    main: html`<h1>${title}</h1>
      ${form}`,
    section: 'works',
    state: m.state,
  };
});
