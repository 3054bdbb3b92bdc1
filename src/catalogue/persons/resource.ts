// Handlers for `/personen` (GET: collection, search, paging; POST: create) and `/person`
// (`?id=` / `?slug=`, reached from `/personen/{slug}` by the rewrite table; GET, PUT, DELETE).
// The write methods exist when the store can write (write.ts), so OPTIONS and 405 list them.
import type { ResourceDefinition, Outcome } from '../../http/resource/types.ts';
import type { PersonStore, Person } from '../model.ts';
import {
  lookUp,
  resolve,
  linkHeaders,
  listQuery,
  loadPage,
  pageLinks,
  pagePath,
  PERSONS_PATH,
  fullName,
  personPath,
} from '../shared/index.ts';
import {
  FEED_SIZE,
  FEED_TITLES,
  feedRepresentation,
  newestOf,
  type FeedEntry,
  type FeedSource,
} from '../feeds/index.ts';
import { strings } from '../i18n/index.ts';
import { collection, subject } from '../changes.ts';
import { personRepresentation } from './person-view.ts';
import { pickWriteMethods, wantsDeleteConfirmation } from '../writes/index.ts';
import { isWritablePersonStore, personWriteMethods } from './write.ts';
import { personsView, type PersonsModel } from './persons-view.ts';
import { visibleTo } from './visibility.ts';
import type { OpenLending } from '../loans/index.ts';
import { personDeleteRepresentation, type PersonDeleteModel } from './confirm-delete-view.ts';
import { routeOf } from '../registry/index.ts';
import { facetFilters, facetsModel, LIST_FACETS } from '../works/index.ts';

/**
 * A person's page shows the person, its account and its works' titles — not their lending, so a
 * loan of one of its works leaves it (ADR 0098); the delete confirmation its open lending too.
 */
function personShows(model: Person | PersonDeleteModel | PersonFeed): string[] {
  // Their feed (ADR 0096): the person, and each entry's work (its date too) and persons' names.
  if ('entries' in model)
    return [
      subject.person(model.author.id),
      ...model.entries.flatMap((e) => [
        subject.work(e.id),
        ...e.personen.map((p) => subject.personName(p.id)),
      ]),
    ];
  const p = 'person' in model ? model.person : model;
  const shown = [subject.person(p.id), ...p.werke.map((w) => subject.workName(w.id))];
  return 'open' in model ? [...shown, subject.loansOf(p.id), subject.holdsOf(p.id)] : shown;
}

/** What a person's feed shows (personFeed). */
interface PersonFeed {
  readonly author: Person;
  readonly entries: readonly FeedEntry[];
}

/** The SQL store says what a person has open at the library and holds; read-only fakes do not. */
function hasOpenLending(store: PersonStore): store is PersonStore & {
  openLending(id: number): Promise<OpenLending>;
  holdsLastStaff(id: number): Promise<boolean>;
} {
  return typeof (store as { openLending?: unknown }).openLending === 'function';
}

/** `feeds`: the person's works as an Atom feed too (`/personen/{slug}.atom`, ADR 0096). */
async function personFeed(person: Person, feeds: FeedSource): Promise<Outcome> {
  const entries = await feeds.ofPerson(person.id, FEED_SIZE);
  const feed = {
    title: `${strings('de').siteName}: ${FEED_TITLES.person(fullName(person))}`,
    canonicalPath: personPath(person.slug),
    author: person,
    entries,
    updated: newestOf(entries, person.updatedAt),
  };
  return { type: 'representation', representation: feedRepresentation(feed) };
}

export function personResource(store: PersonStore, feeds?: FeedSource): ResourceDefinition {
  return {
    name: 'person',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    dependsOn: personShows,
    ...(feeds && { formats: ['atom'] as const }),
    path: routeOf('Person'),
    methods: {
      GET: async (ctx) => {
        // A private person is for themself and staff; to anyone else unknown (ADR 0062).
        const result = resolve(visibleTo(await lookUp(store, ctx), ctx.user), PERSONS_PATH);
        if ('redirect' in result) return result.redirect;
        if (ctx.format === 'atom' && feeds) return personFeed(result.found, feeds);
        // Staff asking to delete are told first what the person still has open (ADR 0061).
        if (wantsDeleteConfirmation(ctx) && hasOpenLending(store)) {
          const open = await store.openLending(result.found.id);
          // Nor is the last staff account's person offered for deletion (ADR 0077).
          const lastStaff = await store.holdsLastStaff(result.found.id);
          return {
            type: 'representation',
            representation: personDeleteRepresentation(result.found, open, lastStaff),
          };
        }
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
    // Names, work counts and who is public: any person or link, a work's name or existence (ADR 0098);
    // the decades of their works, kept in person_decades (ADR 0102).
    dependsOn: () => [collection.persons, collection.workNames, collection.personDecades],
    path: routeOf('Persons'),
    methods: {
      GET: async (ctx) => {
        // The decades of their works, as the works list reads `dekade` (ADR 0102).
        const facets = facetFilters(ctx.query, LIST_FACETS.persons);
        const query = { ...listQuery(ctx), ...(facets && { facets }) };
        // Staff see every person; anyone else the public ones and themself (ADR 0062).
        const page = await loadPage(store.list(query, ctx.user));
        const links = pageLinks(PERSONS_PATH, query, page, ctx);
        const model: PersonsModel = {
          query,
          page,
          links,
          canonicalPath: pagePath(PERSONS_PATH, query),
          facets: facetsModel(query, page.facets, ctx, 'persons'),
          noindex: facets !== undefined,
        };
        return {
          type: 'representation',
          representation: {
            model,
            view: personsView,
            canonicalPath: model.canonicalPath,
            schema: 'persons',
            links: linkHeaders(links),
            // Filtered pages are kept out of search engines, as the works list's (ADR 0094).
            ...(model.noindex && { robots: 'noindex' }),
          },
        };
      },
      ...(isWritablePersonStore(store) && pickWriteMethods(personWriteMethods(store), 'POST')),
    },
  };
}
