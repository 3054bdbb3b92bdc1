// GET handlers for `/werke` (collection, search, paging) and `/werk` (`?id=` / `?slug=`,
// reached from `/werke/{slug}` by the rewrite table).
import type { ResourceDefinition } from '../../http/resource/types.ts';
import type { WorkStore } from '../model.ts';
import { lookUp, resolve } from '../shared/lookup.ts';
import { linkHeaders, listQuery, pageLinks, pagePath } from '../shared/paging.ts';
import { workPath } from '../shared/urls.ts';
import { workView } from './work-view.ts';
import { worksView, type WorksModel } from './works-view.ts';

export function workResource(store: WorkStore): ResourceDefinition {
  return {
    name: 'work',
    path: '/werk',
    methods: {
      GET: async (ctx) => {
        const result = resolve(await lookUp(store, ctx), '/werke');
        if ('redirect' in result) return result.redirect;
        const work = result.found;
        return {
          type: 'representation',
          representation: {
            model: work,
            view: workView,
            canonicalPath: workPath(work.slug),
            lastModified: work.updatedAt,
            schema: 'work',
          },
        };
      },
    },
  };
}

export function worksResource(store: WorkStore): ResourceDefinition {
  return {
    name: 'works',
    path: '/werke',
    methods: {
      GET: async (ctx) => {
        const query = listQuery(ctx);
        const page = await store.list(query);
        const links = pageLinks('/werke', query, page);
        const model: WorksModel = { query, page, links, canonicalPath: pagePath('/werke', query) };
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
    },
  };
}
