// GET handlers for `/personen` (collection, search, paging) and `/person` (`?id=` / `?slug=`,
// reached from `/personen/{slug}` by the rewrite table).
import type { ResourceDefinition } from '../../http/resource/types.ts';
import type { PersonStore } from '../model.ts';
import { lookUp, resolve } from '../shared/lookup.ts';
import { linkHeaders, listQuery, pageLinks, pagePath } from '../shared/paging.ts';
import { personPath } from '../shared/urls.ts';
import { personView } from './person-view.ts';
import { personsView, type PersonsModel } from './persons-view.ts';

export function personResource(store: PersonStore): ResourceDefinition {
  return {
    name: 'person',
    path: '/person',
    methods: {
      GET: async (ctx) => {
        const result = resolve(await lookUp(store, ctx), '/personen');
        if ('redirect' in result) return result.redirect;
        const person = result.found;
        return {
          type: 'representation',
          representation: {
            model: person,
            view: personView,
            canonicalPath: personPath(person.slug),
            lastModified: person.updatedAt,
            schema: 'person',
          },
        };
      },
    },
  };
}

export function personsResource(store: PersonStore): ResourceDefinition {
  return {
    name: 'persons',
    path: '/personen',
    methods: {
      GET: async (ctx) => {
        const query = listQuery(ctx);
        const page = await store.list(query);
        const links = pageLinks('/personen', query, page);
        const model: PersonsModel = { query, page, links, canonicalPath: pagePath('/personen', query) };
        return {
          type: 'representation',
          representation: {
            model,
            view: personsView,
            canonicalPath: model.canonicalPath,
            schema: 'persons',
            links: linkHeaders(links),
          },
        };
      },
    },
  };
}
