// The works collection (also the result of `?q=` searches): summaries with their URL, persons
// as links, paging links like in the persons collection.
import {
  totalHtml,
  totalJson,
  totalXml,
  pagePath,
  type ListQuery,
  type PageLinks,
  type SuggestionLink,
  fullName,
  personPath,
  workPath,
  WORKS_PATH,
} from '../shared/index.ts';
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { layout, pagingHeadLinks, pagingNav } from '../layout/index.ts';
import type { Page, WorkSummary } from '../model.ts';
import { keepFormat } from '../../http/rewrite/index.ts';
import { formStrings, isStaff } from '../writes/index.ts';
import { NEW_WORK_FORM, newWorkForm } from './forms.ts';
import { facetsHtml, facetsJson, facetsXml, type FacetsModel } from './facets-view.ts';

/** "Neues Werk", for staff only (the server checks access on the POST anyway). */
function newWorkSection(ctx: RequestContext): Markup {
  if (!isStaff(ctx)) return html``;
  return html`<details class="staff-tools">
    <summary>${formStrings(ctx.lang).newWork}</summary>
    ${newWorkForm(NEW_WORK_FORM, ctx)}
  </details>`;
}

export interface WorksModel {
  readonly query: ListQuery;
  readonly page: Page<WorkSummary>;
  readonly links: PageLinks;
  readonly suggestion?: SuggestionLink | undefined;
  readonly canonicalPath: string;
  /** The facets (ADR 0094); absent from stores that do not count them. */
  readonly facets?: FacetsModel | undefined;
  /** A facet filter is applied: search engines are asked not to index the page. */
  readonly noindex?: boolean;
}

/** One work as a card; shared with the home page's highlights. */
export function workCard(w: WorkSummary, ctx: RequestContext): Markup {
  const rel = (p: string) => ctx.links.relative(p);
  const persons = w.personen.map((p) => html`<a href="${rel(personPath(p.slug))}">${fullName(p)}</a>`);
  const parts = [...persons, ...(w.jahr !== null ? [html`${w.jahr}`] : [])];
  const meta = parts.map((part, i) => html`${i === 0 ? '' : i === persons.length ? ' · ' : ', '}${part}`);
  return html`<li class="card work-card">
    <a class="card-title" href="${rel(workPath(w.slug))}">${w.titel}</a>
    ${parts.length > 0 && html`<span class="meta">${meta}</span>`}
  </li>`;
}

/** A search's two orders as links (the current one marked), each from its first page. */
function orderNav(m: WorksModel, ctx: RequestContext): Markup {
  if (!m.query.q) return html``;
  const t = strings(ctx.lang);
  const link = (order: 'relevanz' | undefined, label: string) => {
    if (m.query.order === order) return html`<strong aria-current="true">${label}</strong>`;
    const path = pagePath(WORKS_PATH, {
      q: m.query.q,
      ...(order && { order }),
      ...(m.query.facets && { facets: m.query.facets }),
      limit: m.query.limit,
    });
    return html`<a href="${ctx.links.relative(keepFormat(path, ctx.format, ctx.formatSource))}" rel="nofollow">${label}</a>`;
  };
  return html`<p class="order">
    ${t.orderLabel}: ${link(undefined, t.orderTitle)} · ${link('relevanz', t.orderRelevance)}
  </p>`;
}

function worksHtml(m: WorksModel, ctx: RequestContext): Markup {
  const t = strings(ctx.lang);
  const title = m.query.q ? t.resultsFor(m.query.q) : t.worksTitle;
  const main = html`<h1>${title}</h1>
    ${newWorkSection(ctx)}
    ${totalHtml(m.page.total, ctx.lang)} ${orderNav(m, ctx)}
    ${
      m.suggestion &&
      html`<p class="suggestion">
        ${t.didYouMean} <a href="${ctx.links.relative(m.suggestion.path)}" rel="nofollow">${m.suggestion.q}</a>?
      </p>`
    }
    <div class="with-facets">
      ${facetsHtml(m.facets, ctx)}
      <div class="results">
        ${
          m.page.items.length > 0
            ? html`<ul class="cards works">
                ${m.page.items.map((w) => workCard(w, ctx))}
              </ul>`
            : html`<p class="empty">${t.noResults}</p>`
        }
        ${pagingNav(m.links, ctx)}
      </div>
    </div>`;
  return layout(
    {
      title,
      main,
      canonicalPath: m.canonicalPath,
      section: 'works',
      searchValue: m.query.q,
      headLinks: pagingHeadLinks(m.links),
      ...(m.noindex && { robots: 'noindex' }),
    },
    ctx,
  );
}

function worksXml(m: WorksModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.page.items.map(
    (w) => xml`
  <werk ref="${abs(workPath(w.slug))}">
    <titel>${w.titel}</titel>${w.jahr !== null ? xml`\n    <jahr>${w.jahr}</jahr>` : ''}${w.personen.map(
      (p) => xml`\n    <person ref="${abs(personPath(p.slug))}">${fullName(p)}</person>`,
    )}
  </werk>`,
  );
  const suggestion = m.suggestion
    ? xml`\n  <vorschlag ref="${abs(m.suggestion.path)}">${m.suggestion.q}</vorschlag>`
    : '';
  const order = m.query.order ? xml`\n  <sortierung>${m.query.order}</sortierung>` : '';
  return xml`<werke>${m.query.q ? xml`\n  <suche>${m.query.q}</suche>` : ''}${order}${totalXml(m.page.total)}${suggestion}${facetsXml(m.facets, ctx)}${items}${
    m.links.prev ? xml`\n  <vorige ref="${abs(m.links.prev)}"/>` : ''
  }${m.links.next ? xml`\n  <naechste ref="${abs(m.links.next)}"/>` : ''}
</werke>`;
}

function worksJson(m: WorksModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ...(m.query.q ? { suche: m.query.q } : {}),
    ...(m.query.order ? { sortierung: m.query.order } : {}),
    ...totalJson(m.page.total),
    ...(m.suggestion ? { vorschlag: { suche: m.suggestion.q, url: abs(m.suggestion.path) } } : {}),
    ...facetsJson(m.facets, ctx),
    werk: m.page.items.map((w) => ({
      titel: w.titel,
      url: abs(workPath(w.slug)),
      jahr: w.jahr,
      person: w.personen.map((p) => ({ name: fullName(p), url: abs(personPath(p.slug)) })),
    })),
    ...(m.links.prev ? { vorige: abs(m.links.prev) } : {}),
    ...(m.links.next ? { naechste: abs(m.links.next) } : {}),
  };
}

export const worksView: View<WorksModel> = { html: worksHtml, xml: worksXml, json: worksJson };
