// The plain built-in HTML error page, used when the application gives no errorPage of its own.
import { html, type Markup } from '../representation/markup.ts';
import type { Lang, Links, Principal, QueryParams } from '../resource/types.ts';
import type { Problem } from './problem.ts';

export interface ErrorPageContext {
  readonly lang: Lang;
  /** Root-relative links for HTML (`links.relative`). */
  readonly links: Links;
  /** The request path under the base, suffix removed ('' when outside the base). */
  readonly path: string;
  /** The client's query string (e.g. to send a 403's login form back to this URL). */
  readonly query?: QueryParams;
  /** Who is asking, when known (the layout's header shows it). */
  readonly user?: Principal | null;
  /** The CSRF token for forms on the page (log-out button), null without a session. */
  readonly csrfToken?: string | null;
}

export type ErrorPage = (problem: Problem, ctx: ErrorPageContext) => Markup;

const GERMAN_TITLES: Readonly<Record<number, string>> = {
  400: 'Ungültige Anfrage',
  401: 'Anmeldung erforderlich',
  403: 'Zugriff verweigert',
  404: 'Nicht gefunden',
  405: 'Methode nicht erlaubt',
  406: 'Keine passende Darstellung',
  409: 'Konflikt',
  410: 'Nicht mehr vorhanden',
  412: 'Vorbedingung nicht erfüllt',
  413: 'Anfrage zu groß',
  415: 'Medientyp nicht unterstützt',
  422: 'Eingaben unvollständig oder ungültig',
  428: 'Vorbedingung erforderlich',
  429: 'Zu viele Anfragen',
  500: 'Interner Fehler',
  503: 'Dienst nicht verfügbar',
};

/**
 * An absolute URL of this site as the root-relative link HTML uses (docs/representations.md): the problem's
 * `available` URLs are absolute for XML and JSON, an HTML page links them by path. A URL of
 * another origin (or not a URL) stays as it is.
 */
export function rootRelative(url: string, links: Links): string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return url;
  }
  const own = new URL(links.absolute('/'));
  return target.origin === own.origin ? target.pathname + target.search + target.hash : url;
}

export function localTitle(problem: Problem, lang: Lang): string {
  return lang === 'de' ? (GERMAN_TITLES[problem.status] ?? problem.title) : problem.title;
}

export const builtInErrorPage: ErrorPage = (problem, ctx) => {
  const title = localTitle(problem, ctx.lang);
  const e = problem.exception;
  return html`<!DOCTYPE html>
    <html lang="${ctx.lang}">
      <head>
        <meta charset="utf-8" />
        <title>${problem.status} ${title}</title>
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          ${problem.detail !== undefined && html`<p>${problem.detail}</p>`}
          ${
            problem.errors &&
            html`<ul>
              ${problem.errors.map((f) => html`<li><strong>${f.field}</strong>: ${f.detail}</li>`)}
            </ul>`
          }
          ${
            problem.available &&
            html`<ul>
              ${problem.available.map((a) => html`<li><a href="${rootRelative(a.url, ctx.links)}" type="${a.type}">${a.label}</a></li>`)}
            </ul>`
          }
          ${
            e &&
            html`<h2>${e.class}: ${e.message}</h2>
              <p>${e.file}:${e.line}</p>
              <pre>${e.source}</pre>
              <pre>${e.stack}</pre>`
          }
          <p>
            <a href="${ctx.links.relative('/')}">${ctx.lang === 'de' ? 'Zur Startseite' : 'Home page'}</a>
          </p>
        </main>
      </body>
    </html> `;
};
