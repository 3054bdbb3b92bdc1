// Moments as people read them, in the page's language: `<time datetime="ISO">27. November 2026
// um 11:34:25 UTC</time>` on a German page, "27 November 2026 at 11:34:25 UTC" on an English
// one (Intl with the page language). XML and JSON keep ISO 8601; Apache's own formats stay in
// the `?auto` text and the logs.
import type { Lang } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';

const FORMATS: Record<Lang, Intl.DateTimeFormat> = {
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }),
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }),
};

/** Date and time in the page's language (UTC, named). */
export function momentText(date: Date, lang: Lang): string {
  return FORMATS[lang].format(date);
}

/** A `<time>` element: ISO in `datetime`, the readable text inside. */
export function momentHtml(date: Date, lang: Lang): Markup {
  return html`<time datetime="${date.toISOString()}">${momentText(date, lang)}</time>`;
}
