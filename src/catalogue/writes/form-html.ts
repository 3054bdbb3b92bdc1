// Building blocks of the accessible HTML write forms: labelled fields whose hint and error
// message are tied to the input with aria-describedby, an error summary linking to the fields,
// and the hidden fields a form write needs (`_method`, `_csrf`, `_version`).
import type { Representation, RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { formStrings } from './strings.ts';
import type { WriteProblem } from './problems.ts';

/** What a form shows: the entered (or current) values as text and the problems per field. */
export interface FormState {
  readonly values: Readonly<Record<string, string>>;
  readonly problems: readonly WriteProblem[];
}

export const EMPTY_FORM: FormState = { values: {}, problems: [] };

export interface FieldOptions {
  readonly name: string;
  readonly label: string;
  readonly required?: boolean;
  readonly hint?: string;
  /**
   * `numeric` and `url` add inputmode; the type stays text so a wrong entry can be shown again
   * (a `type="url"` input must hold an absolute URL, and our image field also takes a path).
   */
  readonly kind?: 'text' | 'numeric' | 'url' | 'lines';
  readonly maxLength?: number;
}

/** One labelled input. `prefix` keeps ids unique when a page has several forms. */
export function field(prefix: string, o: FieldOptions, state: FormState, ctx: RequestContext): Markup {
  const t = formStrings(ctx.lang);
  const id = `${prefix}-${o.name}`;
  const problem = state.problems.find((p) => p.field === o.name);
  const value = state.values[o.name] ?? '';
  const described = [o.hint && `${id}-hinweis`, problem && `${id}-fehler`].filter(Boolean).join(' ');
  const attrs = html`id="${id}" name="${o.name}"${o.required ? html` required` : ''}${
    o.maxLength !== undefined ? html` maxlength="${o.maxLength}"` : ''
  }${problem ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
  const input =
    o.kind === 'lines'
      ? html`<textarea ${attrs} rows="3">${value}</textarea>`
      : html`<input ${attrs} type="text"${
          o.kind === 'numeric' || o.kind === 'url' ? html` inputmode="${o.kind}"` : ''
        } value="${value}" />`;
  return html`<div class="field${problem ? ' invalid' : ''}">
    <label for="${id}">${o.label}${o.required ? html` <span class="required">(${t.required})</span>` : ''}</label>
    ${input} ${o.hint && html`<p class="hint" id="${id}-hinweis">${o.hint}</p>`}
    ${problem && html`<p class="field-error" id="${id}-fehler">${t.problem(problem)}</p>`}
  </div>`;
}

/** The problems at the top of the form, each linking to its field. */
export function errorSummary(
  prefix: string,
  state: FormState,
  labels: Readonly<Record<string, string>>,
  ctx: RequestContext,
): Markup {
  if (state.problems.length === 0) return html``;
  const t = formStrings(ctx.lang);
  return html`<div class="error-summary" role="alert" tabindex="-1" id="${prefix}-fehler">
    <p>${t.errorSummary}</p>
    <ul>
      ${state.problems.map((p) =>
        labels[p.field] !== undefined
          ? html`<li><a href="#${prefix}-${p.field}">${labels[p.field]}</a>: ${t.problem(p)}</li> `
          : html`<li>${t.problem(p)}</li> `,
      )}
    </ul>
  </div>`;
}

/** `_method` (for PUT/DELETE), `_csrf` (with a cookie session) and `_version` (for PUT/DELETE). */
export function hiddenFields(
  ctx: RequestContext,
  method: 'POST' | 'PUT' | 'DELETE',
  version: string | null,
): Markup {
  return html`${method !== 'POST' ? html`<input type="hidden" name="_method" value="${method}" />` : ''}${
    ctx.csrfToken !== null && ctx.csrfToken !== undefined
      ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />`
      : ''
  }${version !== null ? html`<input type="hidden" name="_version" value="${version}" />` : ''}`;
}

let versioning = 0;

/**
 * The `_version` of the representation a form edits. A page that renders its own version would
 * recurse if the layer computed versions from the HTML itself; the nested rendering then leaves
 * the version out (and stays deterministic), instead of overflowing the stack.
 */
export function versionFor(ctx: RequestContext, representation: Representation<unknown>): string | null {
  if (versioning > 0 || typeof ctx.versionOf !== 'function') return null;
  versioning += 1;
  try {
    return ctx.versionOf(representation);
  } finally {
    versioning -= 1;
  }
}

export const isStaff = (ctx: RequestContext): boolean => ctx.user?.role === 'staff';

/** A body field as form text: a repeated field joined by lines, numbers written out. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (typeof value === 'object' && value !== null) {
    const url = (value as Record<string, unknown>).url;
    if (typeof url === 'string') return url;
    return Object.values(value).map(textOf).join('\n');
  }
  return '';
}

/** The entered values of the named fields, as text for the form. */
export function enteredValues(body: unknown, names: readonly string[]): Record<string, string> {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return Object.fromEntries(names.map((n) => [n, Object.hasOwn(fields, n) ? textOf(fields[n]) : '']));
}

/**
 * The staff's edit (and delete) tools under a resource's page, with the one heading every such
 * section has; callers show it to staff only (the server checks access on the write anyway).
 */
export function staffToolsSection(heading: string, ...parts: readonly Markup[]): Markup {
  return html`<section class="staff-tools" aria-labelledby="bearbeiten-ueberschrift">
    <h2 id="bearbeiten-ueberschrift">${heading}</h2>
    ${parts}
  </section>`;
}
