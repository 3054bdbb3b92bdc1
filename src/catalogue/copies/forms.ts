// The HTML forms that write copies (staff only; the server checks access anyway): "Neues
// Exemplar" on the copies list, the edit form on a copy's page, and the 422 page.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import type { WorkRef } from '../model.ts';
import { copiesPath, copyPath } from '../shared/index.ts';
import { errorSummary, field, formPageView, hiddenFields, type FormState } from '../writes/index.ts';
import { BARCODE_MAX, SIGNATUR_MAX, STANDORT_MAX } from './input.ts';
import type { Copy } from './model.ts';
import { copyStrings } from './strings.ts';

function labels(ctx: RequestContext): Record<string, string> {
  const t = copyStrings(ctx.lang);
  return { signatur: t.signatur, barcode: t.barcode, standort: t.standort, vermisst: t.vermisst };
}

function fields(prefix: string, state: FormState, ctx: RequestContext): Markup {
  const l = labels(ctx);
  const checked = ['true', 'on', '1'].includes(state.values.vermisst ?? '');
  return html`${errorSummary(prefix, state, l, ctx)}
    ${field(prefix, { name: 'signatur', label: l.signatur!, required: true, maxLength: SIGNATUR_MAX }, state, ctx)}
    ${field(prefix, { name: 'barcode', label: l.barcode!, required: true, maxLength: BARCODE_MAX }, state, ctx)}
    ${field(prefix, { name: 'standort', label: l.standort!, required: true, maxLength: STANDORT_MAX }, state, ctx)}
    <div class="field">
      <input type="hidden" name="vermisst" value="false" />
      <input id="${prefix}-vermisst" name="vermisst" type="checkbox" value="true"${checked ? html` checked` : ''} />
      <label for="${prefix}-vermisst">${l.vermisst}</label>
    </div>`;
}

export function copyFormValues(c: Copy): Record<string, string> {
  return {
    signatur: c.signatur,
    barcode: c.barcode,
    standort: c.standort,
    vermisst: String(c.status.kind === 'vermisst'),
  };
}

export const NEW_COPY_FORM: FormState = { values: { standort: 'Freihand' }, problems: [] };

export function newCopyForm(werk: WorkRef, state: FormState, ctx: RequestContext): Markup {
  const t = copyStrings(ctx.lang);
  return html`<form class="write" method="post" action="${ctx.links.relative(copiesPath(werk.slug))}" novalidate>
    ${hiddenFields(ctx, 'POST', null)} ${fields('neu', state, ctx)}
    <button type="submit">${t.create}</button>
  </form>`;
}

export function editCopyForm(c: Copy, state: FormState, version: string | null, ctx: RequestContext): Markup {
  const t = copyStrings(ctx.lang);
  return html`<form class="write" method="post" action="${ctx.links.relative(copyPath(c.werk.slug, c.nummer))}" novalidate>
    ${hiddenFields(ctx, 'PUT', version)} ${fields('bearbeiten', state, ctx)}
    <button type="submit">${t.save}</button>
  </form>`;
}

export interface CopyFormModel {
  readonly werk: WorkRef;
  readonly copy: Copy | null;
  readonly version: string | null;
  readonly state: FormState;
}

export const copyFormView = formPageView<CopyFormModel>((m, ctx) => {
  const t = copyStrings(ctx.lang);
  const title = m.copy ? t.editCopy : t.newCopy;
  const form = m.copy ? editCopyForm(m.copy, m.state, m.version, ctx) : newCopyForm(m.werk, m.state, ctx);
  return { title, main: html`<h1>${title}</h1>${form}`, section: 'works', state: m.state };
});
