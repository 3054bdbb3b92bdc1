// The persons collection (also the result of `?q=` searches), one page at a time.
// Items are the persons' summaries with their URL; paging links are empty elements with `ref`
// in XML and URL strings in JSON, like `image` in the person shape.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { layout, pagingHeadLinks, pagingNav } from '../layout/index.ts';
import type { PersonPage } from '../model.ts';
import type { ListQuery, PageLinks } from '../shared/index.ts';
import { fullName, personPath, totalHtml, totalJson, totalXml, PERSONS_PATH } from '../shared/index.ts';
import { EMPTY_FORM, isStaff, formStrings } from '../writes/index.ts';
import { newPersonForm } from './forms.ts';
import { facetsHtml, facetsJson, facetsXml, type FacetsModel } from '../works/index.ts';

/** "Neue Person", for staff only (the server checks access on the POST anyway). */
function newPersonSection(ctx: RequestContext): Markup {
  if (!isStaff(ctx)) return html``;
  return html`<details class="staff-tools">
    <summary>${formStrings(ctx.lang).newPerson}</summary>
    ${newPersonForm(EMPTY_FORM, ctx)}
  </details>`;
}

export interface PersonsModel {
  readonly query: ListQuery;
  readonly page: PersonPage;
  readonly links: PageLinks;
  readonly canonicalPath: string;
  /** The decade facet (ADR 0102); absent from stores that do not count it. */
  readonly facets?: FacetsModel | undefined;
  /** A facet filter is applied: search engines are asked not to index the page. */
  readonly noindex?: boolean;
}

function personsHtml(m: PersonsModel, ctx: RequestContext): Markup {
  const t = strings(ctx.lang);
  const title = m.query.q ? t.resultsFor(m.query.q) : t.personsTitle;
  const main = html`<h1>${title}</h1>
    ${newPersonSection(ctx)}
    <form
      class="search search-inline"
      role="search"
      aria-label="${t.personSearchLabel}"
      method="get"
      action="${ctx.links.relative(PERSONS_PATH)}"
    >
      <label for="suche-personen">${t.personSearchLabel}</label>
      <input id="suche-personen" type="search" name="q" value="${m.query.q ?? ''}" />
      <button type="submit">${t.searchButton}</button>
    </form>
    ${totalHtml(m.page.total, ctx.lang)}
    <div class="with-facets">
      ${facetsHtml(m.facets, ctx)}
      <div class="results">
        ${
          m.page.items.length > 0
            ? html`<ul class="cards persons">
                ${m.page.items.map(
                  (p) =>
                    html`<li class="card">
                      <a href="${ctx.links.relative(personPath(p.slug))}">${fullName(p)}</a>
                      <span class="meta">${t.workCount(p.werkAnzahl)}</span>
                    </li> `,
                )}
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
      section: 'persons',
      headLinks: pagingHeadLinks(m.links),
      ...(m.noindex && { robots: 'noindex' }),
    },
    ctx,
  );
}

function personsXml(m: PersonsModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.page.items.map(
    (p) => xml`
  <person ref="${abs(personPath(p.slug))}">
    <vorname>${p.vorname}</vorname>
    <nachname>${p.nachname}</nachname>
    <werkAnzahl>${p.werkAnzahl}</werkAnzahl>
  </person>`,
  );
  return xml`<personen>${m.query.q ? xml`\n  <suche>${m.query.q}</suche>` : ''}${totalXml(m.page.total)}${facetsXml(m.facets, ctx)}${items}${
    m.links.prev ? xml`\n  <vorige ref="${abs(m.links.prev)}"/>` : ''
  }${m.links.next ? xml`\n  <naechste ref="${abs(m.links.next)}"/>` : ''}
</personen>`;
}

function personsJson(m: PersonsModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ...(m.query.q ? { suche: m.query.q } : {}),
    ...totalJson(m.page.total),
    ...facetsJson(m.facets, ctx),
    person: m.page.items.map((p) => ({
      vorname: p.vorname,
      nachname: p.nachname,
      url: abs(personPath(p.slug)),
      werkAnzahl: p.werkAnzahl,
    })),
    ...(m.links.prev ? { vorige: abs(m.links.prev) } : {}),
    ...(m.links.next ? { naechste: abs(m.links.next) } : {}),
  };
}

export const personsView: View<PersonsModel> = { html: personsHtml, xml: personsXml, json: personsJson };
