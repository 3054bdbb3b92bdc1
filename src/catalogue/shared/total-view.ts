// A list's size in its three formats (ADR 0025): `gesamt` when exact, `gesamtMehrAls` when a
// search stopped counting — a lower bound is named as one, never passed off as the total.
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import type { Lang } from '../../http/resource/types.ts';
import { strings } from '../i18n/index.ts';
import type { Total } from '../model.ts';

const nameOf = (total: Total) => (total.exact ? 'gesamt' : 'gesamtMehrAls');

export function totalXml(total: Total | undefined): Markup {
  if (!total) return xml``;
  return total.exact
    ? xml`\n  <gesamt>${total.count}</gesamt>`
    : xml`\n  <gesamtMehrAls>${total.count}</gesamtMehrAls>`;
}

export function totalJson(total: Total | undefined): Record<string, number> {
  return total ? { [nameOf(total)]: total.count } : {};
}

export function totalHtml(total: Total | undefined, lang: Lang): Markup {
  if (!total) return html``;
  return html`<p class="total">${strings(lang).total(total.count, total.exact)}</p>`;
}
