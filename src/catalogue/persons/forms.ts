// The HTML forms that write persons: "Neue Person" on the collection page, the edit and delete
// forms on the person's page (staff only; the server checks access anyway; deleting goes
// through writes/confirm-delete.ts), and the page that
// shows a form again with its problems (422).
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import type { Person } from '../model.ts';
import { fullName, personPath, PERSONS_PATH } from '../shared/index.ts';
import {
  errorSummary,
  field,
  hiddenFields,
  type FormState,
  formPageView,
  formStrings,
} from '../writes/index.ts';
import { IMAGE_MAX, NAME_MAX } from './input.ts';

function labels(ctx: RequestContext): Record<string, string> {
  const t = formStrings(ctx.lang);
  return {
    vorname: t.vorname,
    nachname: t.nachname,
    image: t.image,
  };
}

function fields(prefix: string, state: FormState, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  const l = labels(ctx);
  return html`${errorSummary(prefix, state, l, ctx)}
    ${field(prefix, { name: 'vorname', label: l.vorname!, required: true, maxLength: NAME_MAX }, state, ctx)}
    ${field(prefix, { name: 'nachname', label: l.nachname!, required: true, maxLength: NAME_MAX }, state, ctx)}
    ${field(prefix, { name: 'image', label: l.image!, kind: 'url', hint: t.imageHint, maxLength: IMAGE_MAX }, state, ctx)}`;
}

/** The current values of a person, as the edit form shows them. */
export function personFormValues(p: Person): Record<string, string> {
  return {
    vorname: p.vorname,
    nachname: p.nachname,
    image: p.image ?? '',
  };
}

export function newPersonForm(state: FormState, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  return html`<form class="write" method="post" action="${ctx.links.relative(PERSONS_PATH)}" novalidate>
    ${hiddenFields(ctx, 'POST', null)} ${fields('neu', state, ctx)}
    <button type="submit">${t.create}</button>
  </form>`;
}

export function editPersonForm(
  p: Person,
  state: FormState,
  version: string | null,
  ctx: RequestContext,
): Markup {
  const t = formStrings(ctx.lang);
  return html`<form class="write" method="post" action="${ctx.links.relative(personPath(p.slug))}" novalidate>
    ${hiddenFields(ctx, 'PUT', version)} ${fields('bearbeiten', state, ctx)}
    <button type="submit">${t.save}</button>
  </form>`;
}

/** What the 422 page of a person form shows. */
export interface PersonFormModel {
  readonly mode: 'new' | 'edit';
  /** The person being edited (mode `edit`). */
  readonly person?: Person;
  readonly version: string | null;
  readonly state: FormState;
}

export function personFormMain(m: PersonFormModel, ctx: RequestContext): { title: string; main: Markup } {
  const t = formStrings(ctx.lang);
  if (m.mode === 'edit' && m.person) {
    const title = t.editPerson(fullName(m.person));
    return {
      title,
      main: html`<h1>${title}</h1>
        ${editPersonForm(m.person, m.state, m.version, ctx)}`,
    };
  }
  return {
    title: t.newPerson,
    main: html`<h1>${t.newPerson}</h1>
      ${newPersonForm(m.state, ctx)}`,
  };
}

export const personFormView = formPageView<PersonFormModel>((m, ctx) => ({
  ...personFormMain(m, ctx),
  section: 'persons',
  state: m.state,
}));
