// Handlers for `/personen` (GET: collection, search, paging; POST: create) and `/person`
// (`?id=` / `?slug=`, reached from `/personen/{slug}` by the rewrite table; GET, PUT, DELETE).
// The write methods exist when the store can write (write.ts), so OPTIONS and 405 list them.
import type { ResourceDefinition } from '../../http/resource/types.ts';
import type { PersonStore } from '../model.ts';
import { lookUp, resolve } from '../shared/lookup.ts';
import { linkHeaders, listQuery, loadPage, pageLinks, pagePath } from '../shared/paging.ts';
import { personRepresentation } from './person-view.ts';
import { pickWriteMethods } from '../writes/index.ts';
import { isWritablePersonStore, personWriteMethods } from './write.ts';
import { personsView, type PersonsModel } from './persons-view.ts';

export function personResource(store: PersonStore): ResourceDefinition {
  return {
    name: 'person',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    path: '/person',
    methods: {
      GET: async (ctx) => {
        const result = resolve(await lookUp(store, ctx), '/personen');
        if ('redirect' in result) return result.redirect;
        return { type: 'representation', representation: personRepresentation(result.found) };
      },
      ...(isWritablePersonStore(store) &&
        pickWriteMethods(personWriteMethods(store), 'PUT', 'PATCH', 'DELETE')),
    },
  };
}

export function personsResource(store: PersonStore): ResourceDefinition {
  return {
    name: 'persons',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    path: '/personen',
    methods: {
      GET: async (ctx) => {
        const query = listQuery(ctx);
        const page = await loadPage(store.list(query));
        const links = pageLinks('/personen', query, page, ctx);
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
      ...(isWritablePersonStore(store) && pickWriteMethods(personWriteMethods(store), 'POST')),
    },
  };
}
