// Handlers for `/werke` (GET: collection, search, paging; POST: create) and `/werk` (`?id=` /
// `?slug=`, reached from `/werke/{slug}` by the rewrite table; GET, PUT, DELETE). The write
// methods exist when the store can write and persons are given to resolve a work's `person`
// references (write.ts), so OPTIONS and 405 list exactly what works.
import type { Outcome, ResourceDefinition } from '../../http/resource/types.ts';
import { FEED_SIZE, FEED_TITLES, feedRepresentation, newestOf, type FeedSource } from '../feeds/index.ts';
import { strings } from '../i18n/index.ts';
import type { PersonStore, WorkStore, Work } from '../model.ts';
import {
  lookUp,
  resolve,
  linkHeaders,
  listQuery,
  loadPage,
  pageLinks,
  pagePath,
  suggestionLink,
  WORKS_PATH,
} from '../shared/index.ts';
import { subject } from '../changes.ts';
import { workRepresentation } from './work-view.ts';
import { pickWriteMethods } from '../writes/index.ts';
import { isWritableWorkStore, workWriteMethods } from './write.ts';
import { worksView, type WorksModel } from './works-view.ts';
import { routeOf } from '../registry/index.ts';
import { facetFilters } from './facet-query.ts';
import { facetsModel } from './facets-view.ts';

export function workResource(store: WorkStore, persons?: PersonStore): ResourceDefinition {
  return {
    name: 'work',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    // The work, its copies and lending, and its persons' names (ADR 0088, 0098).
    dependsOn: (w: Work) => [subject.work(w.id), ...w.personen.map((p) => subject.personName(p.id))],
    // Its citations (ADR 0095).
    formats: ['ris', 'bib'],
    path: routeOf('Work'),
    methods: {
      GET: async (ctx) => {
        const result = resolve(await lookUp(store, ctx), WORKS_PATH);
        if ('redirect' in result) return result.redirect;
        return { type: 'representation', representation: workRepresentation(result.found) };
      },
      ...(isWritableWorkStore(store) &&
        persons &&
        pickWriteMethods(workWriteMethods(store, persons), 'PUT', 'PATCH', 'DELETE')),
    },
  };
}

async function newWorksFeed(feeds: FeedSource): Promise<Outcome> {
  const entries = await feeds.newest(FEED_SIZE);
  const feed = {
    title: `${strings('de').siteName}: ${FEED_TITLES.works}`,
    canonicalPath: '/werke',
    entries,
    updated: newestOf(entries),
  };
  return { type: 'representation', representation: feedRepresentation(feed) };
}

/** `feeds`: the newest works as an Atom feed too (`/werke.atom`, ADR 0096). */
export function worksResource(
  store: WorkStore,
  persons?: PersonStore,
  feeds?: FeedSource,
): ResourceDefinition {
  return {
    name: 'works',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    // Titles and their persons' names: any work, person or link (ADR 0088); and every page's
    // facets count what is available and of which item type (ADR 0094): any copy, loan or hold.
    dependsOn: () => ['works', 'persons', 'copies', 'loans', 'holds'],
    ...(feeds && { formats: ['atom'] as const }),
    path: routeOf('Works'),
    methods: {
      GET: async (ctx) => {
        // The feed is the newest works whatever the list's search, order and page.
        if (ctx.format === 'atom' && feeds) return newWorksFeed(feeds);
        const facets = facetFilters(ctx.query);
        const query = { ...listQuery(ctx, { orders: true }), ...(facets && { facets }) };
        const page = await loadPage(store.list(query));
        const links = pageLinks(WORKS_PATH, query, page, ctx);
        const model: WorksModel = {
          query,
          page,
          links,
          suggestion: suggestionLink(WORKS_PATH, query, page, ctx),
          canonicalPath: pagePath(WORKS_PATH, query),
          facets: facetsModel(query, page.facets, ctx),
          noindex: facets !== undefined,
        };
        return {
          type: 'representation',
          representation: {
            model,
            view: worksView,
            canonicalPath: model.canonicalPath,
            schema: 'works',
            links: linkHeaders(links),
            // Filtered pages are countless variations of the list: kept out of search engines
            // (and robots.txt disallows their parameters, ADR 0094).
            ...(model.noindex && { robots: 'noindex' }),
          },
        };
      },
      ...(isWritableWorkStore(store) &&
        persons &&
        pickWriteMethods(workWriteMethods(store, persons), 'POST')),
    },
  };
}
