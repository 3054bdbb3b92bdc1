// The HTML page every catalogue view and error page is wrapped in: valid HTML5, language set,
// canonical and alternate links, skip link, header with search, navigation, footer.
import type { Format, Principal, RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { suffixPath, PERSONS_PATH, WORKS_PATH } from '../shared/index.ts';
import {
  logoutButton,
  RETURN_FIELD,
  safeReturnPath,
  SESSION_PATH,
  sessionStrings,
} from '../session/index.ts';
import { DUE_PATH } from '../loans/index.ts';
import { CHECK_IN_PATH } from '../check-in/index.ts';
import { DESK_PATH } from '../desk/index.ts';
import { ERROR_LOG_PATH } from '../error-log/index.ts';
import { SERVER_STATUS_PATH } from '../server-status/index.ts';
import { routeOf, type Section } from '../registry/index.ts';
import { HOLD_SHELF_PATH, OVERDUE_PATH, PATRONS_PATH } from '../staff-lists/index.ts';
import { NOTICES_PATH } from '../notices/index.ts';
import { scriptJson } from '../linked-data/index.ts';
import { ITEM_TYPES_PATH } from '../rules/index.ts';

/** What the layout needs from a request: also satisfied by the layer's error-page context. */
export type PageContext = Pick<RequestContext, 'lang' | 'links'> & {
  /** Who is logged in (the header shows the name and a log-out button, else a log-in link). */
  readonly user?: Principal | null;
  readonly csrfToken?: string | null;
  /** The page's path, to come back to after logging in. */
  readonly path?: string;
};

/** The header's account area: "Anmelden", or "angemeldet als X" with a log-out button. */
function account(ctx: PageContext, canonicalPath: string | undefined): Markup {
  const t = sessionStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  if (ctx.user) {
    return html`<div class="account" role="group" aria-label="${t.accountLabel}">
      <a class="my-account" href="${rel(`${routeOf('Account')}?id=${ctx.user.id}`)}">${t.myAccount}</a>
      <span
        >${t.loggedInAs} <a href="${rel(SESSION_PATH)}">${ctx.user.username}</a></span
      >
      ${logoutButton(ctx, ctx.csrfToken)}
    </div>`;
  }
  // The canonical path, when the page has one: a script URL (`/person?id=1`) then renders the
  // same page as its readable URL, and the return path keeps the query (`/werke?q=faust`).
  const here = canonicalPath ?? ctx.path;
  const back = here && here !== SESSION_PATH ? safeReturnPath(here) : null;
  const href =
    back && back !== '/' ? `${SESSION_PATH}?${RETURN_FIELD}=${encodeURIComponent(back)}` : SESSION_PATH;
  return html`<div class="account"><a href="${rel(href)}">${t.loginLink}</a></div>`;
}

export interface Page {
  /** The page's own title; the site name is appended in <title>. */
  readonly title: string;
  readonly main: Markup;
  /** Canonical readable path; when given the page links to it and to its XML/JSON forms. */
  readonly canonicalPath?: string;
  /** Extra <link> elements (e.g. paging) as path + rel. */
  readonly headLinks?: readonly { readonly rel: string; readonly path: string }[];
  /**
   * Further forms of the page's resource besides XML and JSON (a work's citations, a feed):
   * `<link rel="alternate">` in the head and a link in the footer.
   */
  readonly alternates?: readonly PageAlternate[];
  /** schema.org metadata, embedded as JSON-LD (ADR 0095). */
  readonly jsonLd?: unknown;
  /** Which navigation entry is current. */
  readonly section?: Section;
  /** Prefills the header search box. */
  readonly searchValue?: string;
  /** The page has its own search form (the home page): the header leaves its box out. */
  readonly ownSearch?: boolean;
  /** `<meta name="robots">`, e.g. `noindex` for a filtered list (ADR 0094). */
  readonly robots?: string;
}

export interface PageAlternate {
  /** Path under the base, e.g. `/werke/faust.ris`. */
  readonly path: string;
  /** Its media type. */
  readonly type: string;
  /** What the footer shows, e.g. `RIS`. */
  readonly label: string;
}

/** The OpenSearch description and the feed of new works, which every page names (ADR 0096). */
export const OPENSEARCH_PATH = '/opensearch.xml';
const NEW_WORKS_FEED = '/werke.atom';

const ALTERNATES: readonly { format: Format; type: string }[] = [
  { format: 'xml', type: 'application/xml' },
  { format: 'json', type: 'application/json' },
];

/** Staff's tools, a second navigation in the header: only staff may open them. */
function staffNav(ctx: PageContext, current: (s: Page['section']) => Markup | string): Markup | string {
  if (ctx.user?.role !== 'staff') return '';
  const t = strings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  return html`<nav class="staff" aria-label="${t.staffNavLabel}">
    <ul>
      <li><a href="${rel(DUE_PATH)}" ${current('due-loans')}>${t.navDueLoans}</a></li>
      <li><a href="${rel(DESK_PATH)}" ${current('desk')}>${t.navDesk}</a></li>
      <li><a href="${rel(CHECK_IN_PATH)}" ${current('check-in')}>${t.navCheckIn}</a></li>
      <li><a href="${rel(PATRONS_PATH)}" ${current('patrons')}>${t.navPatrons}</a></li>
      <li><a href="${rel(HOLD_SHELF_PATH)}" ${current('hold-shelf')}>${t.navHoldShelf}</a></li>
      <li><a href="${rel(OVERDUE_PATH)}" ${current('overdue-loans')}>${t.navOverdue}</a></li>
      <li><a href="${rel(NOTICES_PATH)}" ${current('notices')}>${t.navNotices}</a></li>
      <li><a href="${rel(ERROR_LOG_PATH)}" ${current('error-log')}>${t.navErrorLog}</a></li>
      <li><a href="${rel(SERVER_STATUS_PATH)}" ${current('server-status')}>${t.navServerStatus}</a></li>
      <li><a href="${rel(ITEM_TYPES_PATH)}" ${current('rules')}>${t.navRules}</a></li>
    </ul>
  </nav>`;
}

/**
 * The layout's own text between the places a page fills in: it depends only on the language,
 * the base path and (the navigation) the current section, so it is written once per
 * combination and kept (`frameOf`). Each piece is the original template's text cut at those
 * places, so the page's bytes are what one template wrote; a page pays for the escaping and
 * joining of its own values only (ADR 0101).
 */
interface Frame {
  readonly head: Markup;
  readonly afterTitle: Markup;
  readonly styles: Markup;
  readonly feeds: Markup;
  readonly body: Markup;
  readonly nav: Map<Page['section'], Markup>;
  readonly mainStart: Markup;
  readonly mainEnd: Markup;
  readonly end: Markup;
}

function frame(ctx: PageContext): Frame {
  const t = strings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  // The dash as a character reference: the layout's own text stays within Latin-1, so a page
  // whose data is too is a one-byte string, which V8 encodes as UTF-8 several times faster
  // (a 4 KB page: ~1 µs against ~7 µs per response when one character lies beyond U+00FF).
  return {
    head: html`<!DOCTYPE html>
    <html lang="${ctx.lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>`,
    afterTitle: html` &#8211; ${t.siteName}</title>
        `,
    styles: html`
        <link rel="stylesheet" href="${rel('/static/shelfmark.css')}" />
        <link rel="icon" href="${rel('/bilder/standard.svg')}" type="image/svg+xml" />
        `,
    feeds: html`
        <link rel="alternate" type="application/atom+xml" href="${rel(NEW_WORKS_FEED)}" title="${t.newWorksFeed}" />
        <link
          rel="search"
          type="application/opensearchdescription+xml"
          href="${rel(OPENSEARCH_PATH)}"
          title="${t.siteName}"
        />
        `,
    body: html`
      </head>
      <body>
        <a class="skip" href="#inhalt">${t.skipLink}</a>
        <header class="site">
          <div class="site-inner">
            <a class="brand" href="${rel('/')}"
              ><span class="brand-name">${t.siteName}</span> <span class="brand-tag">${t.tagline}</span></a
            >
            `,
    nav: new Map(),
    mainStart: html`
        </header>
        <main id="inhalt" tabindex="-1">`,
    mainEnd: html`</main>
        <footer class="site">
          `,
    end: html`
          <p>${t.siteName} · ${t.tagline}</p>
        </footer>
      </body>
    </html> `,
  };
}

function navigation(ctx: PageContext, section: Page['section']): Markup {
  const t = strings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const current = (s: Page['section']) => (section === s ? html` aria-current="page"` : '');
  return html`
          </div>
          <nav aria-label="${t.navLabel}">
            <ul>
              <li><a href="${rel('/')}" ${current('home')}>${t.navHome}</a></li>
              <li><a href="${rel(PERSONS_PATH)}" ${current('persons')}>${t.navPersons}</a></li>
              <li><a href="${rel(WORKS_PATH)}" ${current('works')}>${t.navWorks}</a></li>
            </ul>
          </nav>
          `;
}

/**
 * The frames by language and base path. The key is the root's relative URL: `Links.relative`
 * prefixes the configured base path, which no request changes (a trusted proxy's forwarded host
 * changes only absolute URLs, which the frame has none of).
 */
const frames = new Map<string, Frame>();

function frameOf(ctx: PageContext): Frame {
  const key = `${ctx.lang}\u0000${ctx.links.relative('/')}`;
  let found = frames.get(key);
  if (found === undefined) frames.set(key, (found = frame(ctx)));
  return found;
}

function navOf(f: Frame, ctx: PageContext, section: Page['section']): Markup {
  let found = f.nav.get(section);
  if (found === undefined) f.nav.set(section, (found = navigation(ctx, section)));
  return found;
}

/** The canonical page, its formats and further links in `<head>`. */
function headLinks(page: Page, ctx: PageContext): Markup {
  const rel = (p: string) => ctx.links.relative(p);
  const canonical = page.canonicalPath;
  return html`${canonical ? html`<link rel="canonical" href="${ctx.links.absolute(canonical)}" />` : ''}
    ${
      canonical
        ? ALTERNATES.map(
            (a) =>
              html`<link
                rel="alternate"
                type="${a.type}"
                href="${rel(suffixPath(canonical, a.format))}"
              /> `,
          )
        : ''
    }${(page.alternates ?? []).map(
      (a) => html`<link rel="alternate" type="${a.type}" href="${rel(a.path)}" /> `,
    )}${(page.headLinks ?? []).map((l) => html`<link rel="${l.rel}" href="${rel(l.path)}" /> `)}`;
}

function searchForm(page: Page, ctx: PageContext): Markup | string {
  if (page.ownSearch) return '';
  const t = strings(ctx.lang);
  return html`<form
    class="search"
    role="search"
    aria-label="${t.quickSearchLabel}"
    method="get"
    action="${ctx.links.relative(WORKS_PATH)}"
  >
    <label for="suche-kopf">${t.searchLabel}</label>
    <input
      id="suche-kopf"
      type="search"
      name="q"
      value="${page.searchValue ?? ''}"
      placeholder="${t.searchPlaceholder}"
    />
    <button type="submit">${t.searchButton}</button>
  </form>`;
}

/** The footer's links to the page's other formats. */
function formatLinks(page: Page, ctx: PageContext): Markup | string {
  const canonical = page.canonicalPath;
  if (!canonical) return '';
  const rel = (p: string) => ctx.links.relative(p);
  return html`<p>
    ${strings(ctx.lang).formats}:
    ${ALTERNATES.map(
      (a, i) =>
        html`${i > 0 ? ', ' : ''}<a
            href="${rel(suffixPath(canonical, a.format))}"
            type="${a.type}"
            >${a.format.toUpperCase()}</a
          >`,
    )}${(page.alternates ?? []).map((a) => html`, <a href="${rel(a.path)}" type="${a.type}">${a.label}</a>`)}
  </p>`;
}

export function layout(page: Page, ctx: PageContext): Markup {
  const f = frameOf(ctx);
  const current = (s: Page['section']) => (page.section === s ? html` aria-current="page"` : '');
  const robots = page.robots ? html`<meta name="robots" content="${page.robots}" />` : '';
  const jsonLd =
    page.jsonLd !== undefined
      ? html`<script type="application/ld+json">${scriptJson(page.jsonLd)}</script>`
      : '';
  return html`${f.head}${page.title}${f.afterTitle}${robots}${f.styles}${headLinks(page, ctx)}${f.feeds}${jsonLd}${f.body}${searchForm(page, ctx)}
    ${account(ctx, page.canonicalPath)}${navOf(f, ctx, page.section)}${staffNav(ctx, current)}${f.mainStart}${page.main}${f.mainEnd}${formatLinks(page, ctx)}${f.end}`;
}
