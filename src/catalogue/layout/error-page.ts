// A full HTML error page in the catalogue's layout: the application's `errorPage` for the
// resource layer (its ErrorPage type), rendering RFC 9457 problem details — field errors of a
// 422, the available representations of a 406, and the exception when displayErrors is on.
// Every sentence is in the page's language: the problem's localDetail, else (English pages) its
// detail, else what its code means (i18n errorExplanations); never an English detail on a
// German page (docs/decisions/0029-page-language-and-problem-text.md).
import { rootRelative, type ErrorPageContext, type Problem } from '../../http/errors/index.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import type { Lang } from '../../http/resource/types.ts';
import { strings } from '../i18n/index.ts';
import { layout } from './page.ts';

export type { Problem as ProblemLike };

export interface ErrorPageSlots {
  /** Extra content for a 403 page — the sessions feature puts its login form here. */
  readonly forbidden?: (problem: Problem, ctx: ErrorPageContext) => Markup;
  /** Extra content for a 401 page — the sessions feature shows its login form again. */
  readonly unauthorized?: (problem: Problem, ctx: ErrorPageContext) => Markup;
}

export type ErrorPage = (problem: Problem, ctx: ErrorPageContext) => Markup;

/** The sentence that explains the problem, in `lang`; undefined when there is none in it. */
export function problemText(p: Problem, lang: Lang): string | undefined {
  const local = p.localDetail?.[lang];
  if (local !== undefined) return local;
  if (lang === 'en' && p.detail !== undefined) return p.detail;
  return strings(lang).errorExplanations[p.code];
}

function details(p: Problem, ctx: ErrorPageContext): Markup {
  const e = p.exception;
  return html`${
    // The field messages of a problem are English (for API clients): an English page lists them.
    ctx.lang === 'en' &&
    p.errors &&
    html`<ul class="field-errors">
      ${p.errors.map((f) => html`<li><strong>${f.field}</strong>: ${f.detail}</li> `)}
    </ul>`
  }
  ${
    p.available &&
    html`<ul class="available">
      ${p.available.map((a) => html`<li><a href="${rootRelative(a.url, ctx.links)}" type="${a.type}">${a.label}</a></li> `)}
    </ul>`
  }
  ${
    e &&
    html`<section class="error-details" lang="en">
      <h2>${e.class}: ${e.message}</h2>
      <p><code>${e.file}:${e.line}</code></p>
      <pre>${e.source}</pre>
      <pre>${e.stack}</pre>
    </section>`
  }`;
}

export function createErrorPage(slots: ErrorPageSlots = {}): ErrorPage {
  return (problem, ctx) => {
    const t = strings(ctx.lang);
    // The localized title reads better for people than the layer's status phrase.
    const title =
      (ctx.lang === 'de' ? t.errorTitles[problem.status] : undefined) ?? problem.title ?? t.errorFallback;
    const text = problemText(problem, ctx.lang);
    const main = html`<article class="error">
      <h1><span class="status">${problem.status}</span> ${title}</h1>
      ${text !== undefined && html`<p class="detail">${text}</p>`} ${details(problem, ctx)}
      ${problem.status === 403 && slots.forbidden && html`<div class="slot-login">${slots.forbidden(problem, ctx)}</div>`}
      ${problem.status === 401 && slots.unauthorized && html`<div class="slot-login">${slots.unauthorized(problem, ctx)}</div>`}
      <p><a href="${ctx.links.relative('/')}">${t.errorBack}</a></p>
    </article>`;
    return layout({ title: `${problem.status} ${title}`, main }, ctx);
  };
}

export const errorPage: ErrorPage = createErrorPage();
