// The home page: welcome, search, the collections, a few works from the catalogue.
// XML/JSON: the entry point for programs — where the collections and the search are.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { layout } from '../layout/index.ts';
import type { WorkSummary } from '../model.ts';
import { workPath, PERSONS_PATH, WORKS_PATH } from '../shared/index.ts';
import { workCard } from '../works/index.ts';

export interface HomeModel {
  readonly siteName: string;
  readonly highlights: readonly WorkSummary[];
}

function homeHtml(m: HomeModel, ctx: RequestContext): Markup {
  const t = strings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const main = html`<section class="welcome">
      <h1>${t.homeTitle}</h1>
      <p class="lead">${t.homeIntro}</p>
      <form
        class="search search-large"
        role="search"
        aria-label="${t.searchLabel}"
        method="get"
        action="${rel(WORKS_PATH)}"
      >
        <label for="suche-start">${t.searchLabel}</label>
        <input id="suche-start" type="search" name="q" placeholder="${t.searchPlaceholder}" />
        <button type="submit">${t.searchButton}</button>
      </form>
    </section>
    <section>
      <h2>${t.homeBrowse}</h2>
      <ul class="collections">
        <li><a href="${rel(WORKS_PATH)}">${t.navWorks}</a></li>
        <li><a href="${rel(PERSONS_PATH)}">${t.navPersons}</a></li>
      </ul>
    </section>
    ${
      m.highlights.length > 0
        ? html`<section>
            <h2>${t.homeHighlights}</h2>
            <ul class="cards works">
              ${m.highlights.map((w) => workCard(w, ctx))}
            </ul>
          </section>`
        : ''
    }`;
  return layout({ title: t.homeTitle, main, canonicalPath: '/', section: 'home', ownSearch: true }, ctx);
}

function homeXml(m: HomeModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const works = m.highlights.map((w) => xml`\n    <werk ref="${abs(workPath(w.slug))}">${w.titel}</werk>`);
  return xml`<katalog>
  <titel>${m.siteName}</titel>
  <personen ref="${abs(PERSONS_PATH)}"/>
  <werke ref="${abs(WORKS_PATH)}"/>
  <suche ref="${abs(WORKS_PATH)}" parameter="q"/>
  ${works.length > 0 ? xml`<hervorgehoben>${works}\n  </hervorgehoben>` : xml`<hervorgehoben/>`}
</katalog>`;
}

function homeJson(m: HomeModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    titel: m.siteName,
    personen: abs(PERSONS_PATH),
    werke: abs(WORKS_PATH),
    suche: { url: abs(WORKS_PATH), parameter: 'q' },
    werk: m.highlights.map((w) => ({ titel: w.titel, url: abs(workPath(w.slug)) })),
  };
}

export const homeView: View<HomeModel> = { html: homeHtml, xml: homeXml, json: homeJson };
