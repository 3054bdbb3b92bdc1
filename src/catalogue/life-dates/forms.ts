// The staff's form that writes a person's life dates (PUT, on the life dates' page), and the
// page that shows it again with its problems (422).
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { fullName, lifeDatesPath } from '../shared/index.ts';
import {
  errorSummary,
  field,
  formPageView,
  formStrings,
  hiddenFields,
  type FormState,
} from '../writes/index.ts';
import type { LifeDates } from './store.ts';
import { lifeDatesStrings } from './strings.ts';

function labels(ctx: RequestContext): Record<string, string> {
  const t = formStrings(ctx.lang);
  return { geboren: t.geboren, gestorben: t.gestorben };
}

/** The current values, as the edit form shows them. */
export function lifeDatesFormValues(d: LifeDates): Record<string, string> {
  return {
    geboren: d.geboren === null ? '' : String(d.geboren),
    gestorben: d.gestorben === null ? '' : String(d.gestorben),
  };
}

export function editLifeDatesForm(
  d: LifeDates,
  state: FormState,
  version: string | null,
  ctx: RequestContext,
): Markup {
  const t = formStrings(ctx.lang);
  const l = labels(ctx);
  const hint = lifeDatesStrings(ctx.lang).yearHint;
  const prefix = 'lebensdaten';
  return html`<form class="write" method="post" action="${ctx.links.relative(lifeDatesPath(d.slug))}" novalidate>
    ${hiddenFields(ctx, 'PUT', version)} ${errorSummary(prefix, state, l, ctx)}
    ${field(prefix, { name: 'geboren', label: l.geboren!, kind: 'numeric', hint }, state, ctx)}
    ${field(prefix, { name: 'gestorben', label: l.gestorben!, kind: 'numeric', hint }, state, ctx)}
    <button type="submit">${t.save}</button>
  </form>`;
}

/** What the 422 page of the life dates form shows. */
export interface LifeDatesFormModel {
  readonly lifeDates: LifeDates;
  readonly version: string | null;
  readonly state: FormState;
}

export const lifeDatesFormView = formPageView<LifeDatesFormModel>((m, ctx) => {
  const title = lifeDatesStrings(ctx.lang).editTitle(fullName(m.lifeDates));
  return {
    title,
    main: html`<h1>${title}</h1>
      ${editLifeDatesForm(m.lifeDates, m.state, m.version, ctx)}`,
    section: 'persons',
    state: m.state,
  };
});
