// Handlers for `/werke` (GET: collection, search, paging; POST: create) and `/werk` (`?id=` /
// `?slug=`, reached from `/werke/{slug}` by the rewrite table; GET, PUT, DELETE). The write
// methods exist when the store can write and persons are given to resolve a work's `person`
// references (write.ts), so OPTIONS and 405 list exactly what works.
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { subject } from '../changes.ts';
import type { PersonStore, Work, WorkStore } from '../model.ts';
import { lookUp, resolve } from '../shared/lookup.ts';
import { linkHeaders, listQuery, loadPage, pageLinks, pagePath, suggestionLink } from '../shared/paging.ts';
import { workRepresentation } from './work-view.ts';
import { pickWriteMethods } from '../writes/index.ts';
import { isWritableWorkStore, workWriteMethods } from './write.ts';
import { worksView, type WorksModel } from './works-view.ts';

export function workResource(store: WorkStore, persons?: PersonStore): ResourceDefinition {
  return {
    name: 'work',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    // The work, its copies and lending, and its persons' names (ADR 0088).
    dependsOn: (w: Work) => [subject.work(w.id), ...w.personen.map((p) => subject.person(p.id))],
    path: '/werk',
    methods: {
      GET: async (ctx) => {
        const result = resolve(await lookUp(store, ctx), '/werke');
        if ('redirect' in result) return result.redirect;
        return { type: 'representation', representation: workRepresentation(result.found) };
      },
      ...(isWritableWorkStore(store) &&
        persons &&
        pickWriteMethods(workWriteMethods(store, persons), 'PUT', 'PATCH', 'DELETE')),
    },
  };
}

export function worksResource(store: WorkStore, persons?: PersonStore): ResourceDefinition {
  return {
    name: 'works',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    // Titles and their persons' names: any work, person or link (ADR 0088).
    dependsOn: () => ['works', 'persons'],
    path: '/werke',
    methods: {
      GET: async (ctx) => {
        const query = listQuery(ctx, { orders: true });
        const page = await loadPage(store.list(query));
        const links = pageLinks('/werke', query, page, ctx);
        const model: WorksModel = {
          query,
          page,
          links,
          suggestion: suggestionLink('/werke', query, page, ctx),
          canonicalPath: pagePath('/werke', query),
        };
        return {
          type: 'representation',
          representation: {
            model,
            view: worksView,
            canonicalPath: model.canonicalPath,
            schema: 'works',
            links: linkHeaders(links),
          },
        };
      },
      ...(isWritableWorkStore(store) &&
        persons &&
        pickWriteMethods(workWriteMethods(store, persons), 'POST')),
    },
  };
}
