// SQL-backed PersonStore (read side, model.ts) plus the writes the catalogue needs.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Principal } from '../../http/resource/types.ts';
import {
  clampLimit,
  decodeCursor,
  filingName,
  keysetPage,
  placeUnranked,
  planFullText,
  searchKeyset,
  searchText,
  sortKey,
} from '../../storage/index.ts';
import type {
  Person,
  PersonPage,
  PersonPageRequest,
  PersonStore,
  Total,
  WorkFacetFilters,
  WorkFacets,
} from '../model.ts';
import type { DB } from '../tables.ts';
import { createWithGeneratedSlug, slugForNew } from '../slugs.ts';
import {
  touchWorksOf,
  compareAndSet,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
  keyedList,
  totalFor,
  type ListScope,
  claimRow,
  softDelete,
  LIST_KEY_TYPES,
  SEARCH_COUNT_CAP,
} from '../shared/index.ts';
import { livePersonId, loadPerson, loadPersonBySlug } from './read.ts';
import { resolveOptions, type StoreOptions } from '../store-options.ts';
import {
  countFacets,
  disjunctiveFacets,
  FACET_SAMPLE,
  personFacetScope,
  refreshWorkSearchText,
} from '../works/index.ts';
import { lockShowing, lockSubjects } from '../changes.ts';
import { openLendingOf, refuseWhileLending, type LendingClock, type OpenLending } from '../loans/index.ts';
import { HOLD_DAYS } from '../holds/index.ts';
import { isLastStaff, refuseLastStaff } from '../accounts/index.ts';

export interface PersonInput {
  /** Wanted slug (PUT to a new URL, demo data); generated from the name when absent. */
  readonly slug?: string;
  readonly vorname: string;
  readonly nachname: string;
  readonly image?: string | null;
}

export interface SqlPersonStore extends PersonStore {
  /** Creates a person; ConflictError when an explicit slug is taken (now or formerly). */
  create(input: PersonInput): Promise<Person>;
  /**
   * Replaces every field at the same URL: the slug never changes (a new name does not move the
   * person; ADR 0024). The life dates are not the person's fields: they stay (ADR 0026).
   * null: no live person.
   * With `expectedUpdatedAt`: ChangedMeanwhileError (nothing written) unless the row still has it.
   */
  replace(id: number, input: Omit<PersonInput, 'slug'>, expect?: WriteExpectation): Promise<Person | null>;
  /**
   * Marks the person deleted (its URL then answers 410); false when there was no live person.
   * With `expectedUpdatedAt`: ChangedMeanwhileError (nothing written) unless the row still has it.
   */
  delete(id: number, expect?: WriteExpectation): Promise<boolean>;
  /** Open loans and holds of a person: while there are any, delete refuses (ADR 0061). */
  openLending(id: number): Promise<OpenLending>;
  /** The person holds the last usable staff account: delete refuses (ADR 0077). */
  holdsLastStaff(id: number): Promise<boolean>;
}

const SUMMARY_COLUMNS = [
  'persons.id',
  'persons.slug',
  'persons.vorname',
  'persons.nachname',
  'persons.sort_key',
] as const;

export function personSortKey(vorname: string, nachname: string): string {
  return sortKey(filingName(nachname), vorname);
}

export { loadPerson } from './read.ts';

async function loadLive(db: Kysely<DB>, id: number): Promise<Person> {
  const result = await loadPerson(db, id);
  if (!result || !('found' in result)) throw new Error(`person ${id} vanished while being written`);
  return result.found;
}

export function createPersonStore(db: Kysely<DB>, options?: StoreOptions): SqlPersonStore {
  const { capabilities, now, maxPageSize } = resolveOptions(db, options);
  const lending: LendingClock = { now, holdDays: options?.holdDays ?? HOLD_DAYS };

  function fields(input: Omit<PersonInput, 'slug'>) {
    return {
      vorname: input.vorname,
      nachname: input.nachname,
      image: input.image ?? null,
      sort_key: personSortKey(input.vorname, input.nachname),
      search_text: searchText(input.vorname, input.nachname),
    };
  }

  return {
    byId: (id) => (Number.isSafeInteger(id) && id > 0 ? loadPerson(db, id) : Promise.resolve(null)),

    bySlug: (slug) => loadPersonBySlug(db, slug),

    idOf: (ref) => livePersonId(db, ref),

    async list(request: PersonPageRequest, viewer: Principal | null = null): Promise<PersonPage> {
      const limit = clampLimit(request.limit, maxPageSize);
      const plan = request.q?.trim()
        ? await planFullText(db, capabilities, PERSON_SEARCH, request.q)
        : undefined;
      if (plan === null) return { items: [], total: { count: 0, exact: true }, facets: NO_FACETS };
      const seen = personScope(db, viewer);
      const list = keyedList(db, 'persons', withFacets(seen, request.facets));
      // The total and the decades from one read of the first matches, as the works list reads
      // them (ADR 0094, 0102); the unfiltered list keeps its kept count, a filtered one counts to
      // FACET_SAMPLE. A chosen decade's values are counted without it (ADR 0099).
      const counting = totalFor(
        async (): Promise<{ total: Total; facets: WorkFacets }> => {
          const filtered = request.facets?.dekade !== undefined;
          const unfiltered = plan === undefined && !filtered;
          const cap = unfiltered || filtered ? FACET_SAMPLE : SEARCH_COUNT_CAP;
          const ids = await list.sample(plan, cap);
          const exact = ids.length <= cap;
          const total = unfiltered ? await list.total(undefined) : { count: exact ? ids.length : cap, exact };
          const facets = await disjunctiveFacets(
            db,
            request.facets,
            countFacets(db, ids, ids.length <= FACET_SAMPLE, { list: 'persons' }),
            (others) => keyedList(db, 'persons', withFacets(seen, others)).sample(plan, FACET_SAMPLE),
            { list: 'persons' },
          );
          return { total, facets };
        },
        request,
        capabilities.concurrentReads,
        (cursor) => decodeCursor(cursor, LIST_KEY_TYPES),
      );
      const page = await keysetPage(
        { after: request.after, before: request.before, limit },
        searchKeyset(plan, {
          keyTypes: LIST_KEY_TYPES,
          rows: (predicate, range, n) =>
            list
              .inOrder(predicate, range, n)
              .select(SUMMARY_COLUMNS)
              .select((eb) =>
                eb
                  .selectFrom('person_work')
                  .innerJoin('works', 'works.id', 'person_work.work_id')
                  .select((e) => e.cast<number>(e.fn.countAll(), 'integer').as('n'))
                  .whereRef('person_work.person_id', '=', 'persons.id')
                  .where('works.deleted_at', 'is', null)
                  .as('werkAnzahl'),
              )
              .limit(n)
              .execute(),
          keys: list.keys,
          keyAt: list.keyAt,
          keyOf: (row) => [row.sort_key, row.id],
        }),
      );
      const counted = await counting();
      return {
        ...page,
        total: counted.total,
        facets: counted.facets,
        items: page.items.map(({ sort_key: _key, werkAnzahl, ...ref }) => ({
          ...ref,
          werkAnzahl: Number(werkAnzahl ?? 0),
        })),
      };
    },

    async create(input) {
      return createWithGeneratedSlug(input.slug === undefined, () =>
        db.transaction().execute(async (trx) => {
          // First the lock (ADR 0088): no other writer can take the slug until commit.
          await lockSubjects(trx, ['slugs:person']);
          const slug = await slugForNew(trx, 'person', input.slug, `${input.vorname} ${input.nachname}`);
          const at = now();
          const { id } = await trx
            .insertInto('persons')
            .values({ slug, ...fields(input), created_at: at, updated_at: at })
            .returning('id')
            .executeTakeFirstOrThrow();
          await placeUnranked(trx, capabilities, 'persons');
          return loadLive(trx, id);
        }),
      );
    },

    async replace(id, input, expect) {
      const expected = expectedText(expect);
      return compareAndSet(expected, () =>
        db.transaction().execute(async (trx) => {
          await lockShowing(trx, 'persons', id);
          const current = await trx
            .selectFrom('persons')
            .select(['vorname', 'nachname', 'updated_at', 'created_at', 'life_dates_updated_at'])
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (!current) return null;
          // First the compare-and-set (it also holds the row until commit), then the rest.
          const at = await claimRow(trx, 'persons', id, expected ?? current.updated_at, now());
          const renamed = current.vorname !== input.vorname || current.nachname !== input.nachname;
          // The life dates' page shows the name: a new name is a new version of it too (ADR 0026).
          const lifeDates = renamed
            ? {
                life_dates_updated_at: nextUpdatedAt(at, current.life_dates_updated_at ?? current.created_at),
              }
            : {};
          await trx
            .updateTable('persons')
            .set({ ...fields(input), ...lifeDates })
            .where('id', '=', id)
            .execute();
          if (renamed) {
            await refreshWorkSearchText(trx, { personId: id });
            await touchWorksOf(trx, id, at);
          }
          // A new name may move the person in the list: ranked again (storage/list-rank.ts).
          await placeUnranked(trx, capabilities, 'persons');
          return loadLive(trx, id);
        }),
      );
    },

    openLending: (id) => openLendingOf(db, id, lending),
    holdsLastStaff: (id) => isLastStaff(db, id),

    // Refused while the person has open loans or holds (PersonHasLendingError, ADR 0061), holds
    // counted as of now (a ready hold that ran out is over, ADR 0067).
    delete: (id, expect) =>
      softDelete(db, 'persons', id, expect, now, touchWorksOf, async (trx, personId) => {
        await refuseWhileLending(trx, personId, lending);
        // The person's account goes with it: never the last staff account (ADR 0077).
        await refuseLastStaff(trx, personId);
      }),
  };
}

/**
 * The persons a viewer's lists show (ADR 0062): staff every live person; anyone else the public
 * ones (the literal `public = 1` lets SQLite use the partial index persons_public_sort, which a
 * bound parameter would not) and, signed in, themself — counted apart, being maybe private.
 */
function personScope(db: Kysely<DB>, viewer: Principal | null): ListScope {
  if (viewer?.role === 'staff') return { counted: 'persons' };
  if (viewer === null) return { where: sql<SqlBool>`persons.public = 1`, counted: 'public_persons' };
  return {
    where: sql<SqlBool>`(persons.public = 1 or persons.id = ${viewer.id})`,
    counted: 'public_persons',
    async uncounted() {
      const self = await db
        .selectFrom('persons')
        .select('id')
        .where('id', '=', viewer.id)
        .where('deleted_at', 'is', null)
        .where('public', '=', 0)
        .executeTakeFirst();
      return self ? 1 : 0;
    },
  };
}

/**
 * The viewer's persons narrowed to those with a live work of a chosen decade (ADR 0102): every
 * plan tests `where`; an unsearched page reads each decade's persons in list order from
 * `person_decades` (keyed-list.ts `keyed`) instead of walking every person to find them.
 */
function withFacets(seen: ListScope, filters: WorkFacetFilters | undefined): ListScope {
  const facets = personFacetScope(filters);
  if (facets === undefined) return seen;
  return {
    where: seen.where ? sql<SqlBool>`(${seen.where} and ${facets.where})` : facets.where,
    counted: seen.counted,
    keyed: {
      table: 'person_decades',
      idColumn: 'person_id',
      each: facets.each,
      ...(seen.where && { rowWhere: seen.where }),
    },
  };
}

const NO_FACETS: WorkFacets = { exact: true, autor: [], dekade: [], verfuegbar: [], medientyp: [] };

const PERSON_SEARCH = {
  idColumn: 'persons.id',
  ftsTable: 'persons_fts',
  vectorColumn: 'persons.search_vector',
  rankedFtsTable: 'persons_ranked_fts',
  termIndex: true,
};
