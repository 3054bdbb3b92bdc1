// SQL-backed WorkStore (read side, model.ts) plus the writes the catalogue needs.
import { lockShowing, lockSubjects, subject } from '../changes.ts';
import { sql, type CompiledQuery, type Expression, type Kysely, type SqlBool } from 'kysely';
import {
  clampLimit,
  decodeCursor,
  ForeignKeyError,
  fullTextRowTest,
  idList,
  inIdList,
  inIds,
  jsonRows,
  keysetPage,
  parseJsonRows,
  placeUnranked,
  param,
  planFullText,
  prepare,
  searchKeyset,
  sortKey,
  suggestQuery,
  withGenericPlan,
  type FullTextPlan,
  type JsonRows,
  type KeyRange,
  type KeysetRequest,
} from '../../storage/index.ts';
import {
  SUGGEST_BELOW,
  type PersonRef,
  type Total,
  type Work,
  type WorkFacetFilters,
  type WorkFacets,
  type WorkPage,
  type WorkPageRequest,
  type WorkStore,
} from '../model.ts';
import type { DB } from '../tables.ts';
import { createWithGeneratedSlug, slugForNew } from '../slugs.ts';
import {
  touchPersonsOf,
  touchRows,
  compareAndSet,
  expectedText,
  type WriteExpectation,
  keyedList,
  type ListScope,
  besidePage,
  totalFor,
  claimRow,
  softDelete,
  LIST_KEY_TYPES,
  SEARCH_COUNT_CAP,
} from '../shared/index.ts';
import { loadWork, loadWorkBySlug, type ReadClock } from './read.ts';
import { HOLD_DAYS, settleWork, type LockedWork } from '../holds/index.ts';
import { resolveOptions, type StoreOptions } from '../store-options.ts';
import {
  countFacets,
  disjunctiveFacets,
  FACET_SAMPLE,
  facetAlternatives,
  facetCondition,
  facetTerms,
} from './facets.ts';
import { workSearchText } from './search-text.ts';
import { decodeRelevance, EXACT_CAP, exactMatches, relevancePage, type Keyed } from './relevance.ts';
import { CopiesOnLoanError, hasCopyOnLoan, liveCopyCount, setCopyCount } from '../copies/index.ts';

export { CopiesOnLoanError };

export interface WorkInput {
  /** Wanted slug (PUT to a new URL, demo data); generated from the title when absent. */
  readonly slug?: string;
  readonly titel: string;
  readonly jahr?: number | null;
  /** Copies owned (≥ 0, default 1). */
  readonly exemplare?: number;
  /** Persons (authors) in order; each must be a live person. */
  readonly personIds?: readonly number[];
}

export interface SqlWorkStore extends WorkStore {
  /** Creates a work; ConflictError when an explicit slug is taken, ForeignKeyError for an unknown person. */
  create(input: WorkInput): Promise<Work>;
  /**
   * Replaces every field at the same URL: the slug never changes (a new title does not move the
   * work; ADR 0024). null: no live work.
   * With `expectedUpdatedAt`: ChangedMeanwhileError (nothing written) unless the row still has it.
   */
  replace(id: number, input: Omit<WorkInput, 'slug'>, expect?: WriteExpectation): Promise<Work | null>;
  /**
   * Marks the work deleted (its URL then answers 410); false when there was no live work.
   * With `expectedUpdatedAt`: ChangedMeanwhileError (nothing written) unless the row still has it.
   */
  delete(id: number, expect?: WriteExpectation): Promise<boolean>;
}

export function workSortKey(titel: string): string {
  return sortKey(titel);
}

interface PersonOfWork extends PersonRef {
  readonly work_id: number;
}

/**
 * The live persons of a page's works, built once: the ids go in as one parameter (an array on
 * PostgreSQL, JSON text on SQLite), so every page size is the same statement — PostgreSQL keeps
 * it prepared instead of parsing and planning it for each page (ADR 0068).
 */
const PERSONS_OF_WORKS = prepare<{ ids: number[] | string }, PersonOfWork, DB>((db: Kysely<DB>) =>
  db
    .selectFrom('person_work')
    .innerJoin('persons', 'persons.id', 'person_work.person_id')
    .select(['person_work.work_id', 'persons.id', 'persons.slug', 'persons.vorname', 'persons.nachname'])
    .where(inIdList(db, 'person_work.work_id', 'ids'))
    .where('persons.deleted_at', 'is', null)
    .orderBy('person_work.work_id')
    .orderBy('person_work.position'),
);

/** The columns a list shows of a work, and its key (every read of list rows selects these). */
const LISTED_COLUMNS = ['works.id', 'works.slug', 'works.titel', 'works.jahr', 'works.sort_key'] as const;

export interface ListedWork {
  readonly id: number;
  readonly slug: string;
  readonly titel: string;
  readonly jahr: number | null;
  readonly sort_key: string;
}

/** Live works by id, in list order; prepared like PERSONS_OF_WORKS (ADR 0068). */
const WORKS_BY_IDS = prepare<{ ids: number[] | string }, ListedWork, DB>((db: Kysely<DB>) =>
  db
    .selectFrom('works')
    .select(LISTED_COLUMNS)
    .where(inIdList(db, 'works.id', 'ids'))
    .where('works.deleted_at', 'is', null)
    .orderBy('works.sort_key')
    .orderBy('works.id'),
);

/** A page's works by id (a search's first matches, ADR 0113); a work deleted meanwhile is left out. */
async function worksByIds(db: Kysely<DB>, ids: readonly number[]): Promise<ListedWork[]> {
  return ids.length === 0 ? [] : WORKS_BY_IDS.execute(db, { ids: idList(db, ids) });
}

/**
 * For a range forwards (exclusive, open-ended), the `n` rows after `range.from` (from the start
 * without it) taken from `firstMatches`, the ids of a search's first matches in list order (up to
 * `cap` + 1 of them: more than `cap` means there are more; asked for only for such a range): when
 * the cursor's row is among them, still where its key says (a work renamed since has moved:
 * then, as when the rows are not all there, undefined and the index decides). A work deleted
 * since the matches were read is left out.
 */
async function rowsWithin(
  db: Kysely<DB>,
  firstMatches: () => Promise<readonly number[]>,
  cap: number,
  range: KeyRange,
  n: number,
): Promise<ListedWork[] | undefined> {
  if (range.direction !== 'after' || range.inclusive || range.to !== undefined) return undefined;
  const first = await firstMatches();
  const from = range.from;
  const at = from === undefined ? -1 : first.indexOf(from[1] as number);
  if (from !== undefined && at < 0) return undefined;
  const next = first.slice(at + 1, at + 1 + n);
  if (next.length < n && first.length > cap) return undefined;
  if (from === undefined) return worksByIds(db, next);
  // The cursor's row comes first in list order, if its key is still the cursor's.
  const [row, ...rows] = await worksByIds(db, [from[1] as number, ...next]);
  return row !== undefined && row.id === from[1] && row.sort_key === from[0] ? rows : undefined;
}

/** Live persons of the given works, in their order per work. */
export async function personsOfWorks(
  db: Kysely<DB>,
  workIds: readonly number[],
): Promise<Map<number, PersonRef[]>> {
  const byWork = new Map<number, PersonRef[]>(workIds.map((id) => [id, []]));
  if (workIds.length === 0) return byWork;
  const rows = await PERSONS_OF_WORKS.execute(db, { ids: idList(db, workIds) });
  for (const { work_id, ...person } of rows) byWork.get(work_id)?.push(person);
  return byWork;
}

export { loadWork } from './read.ts';

async function loadLive(db: Kysely<DB>, id: number, clock: ReadClock): Promise<Work> {
  const result = await loadWork(db, id, clock);
  if (!result || !('found' in result)) throw new Error(`work ${id} vanished while being written`);
  return result.found;
}

/**
 * Writes the person links of a work and returns the linked persons' names (for search).
 * `linked`: the work's links as they are, in order; when they are already these, none is
 * rewritten (a rewrite fires the link triggers: change log, who is public).
 */
async function linkPersons(
  trx: Kysely<DB>,
  workId: number,
  personIds: readonly number[],
  linked: readonly number[] = [],
  /** The live ones of `personIds`, when the caller read them under its locks already. */
  known?: readonly PersonName[],
) {
  const unique = [...new Set(personIds)];
  const persons = known ?? (await livePersons(trx, unique));
  const missing = unique.filter((id) => !persons.some((p) => p.id === id));
  if (missing.length > 0) throw new ForeignKeyError(`unknown person id ${missing.join(', ')}`);
  if (sameOrder(unique, linked)) return unique.map((id) => persons.find((p) => p.id === id)!);
  await trx.deleteFrom('person_work').where('work_id', '=', workId).execute();
  if (unique.length > 0) {
    await trx
      .insertInto('person_work')
      .values(unique.map((person_id, position) => ({ person_id, work_id: workId, position })))
      .execute();
  }
  return unique.map((id) => persons.find((p) => p.id === id)!);
}

type PersonName = { readonly id: number; readonly vorname: string; readonly nachname: string };

async function livePersons(trx: Kysely<DB>, ids: readonly number[]): Promise<PersonName[]> {
  if (ids.length === 0) return [];
  return trx
    .selectFrom('persons')
    .select(['id', 'vorname', 'nachname'])
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
}

function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function checkCopies(exemplare: number | undefined): number {
  const copies = exemplare ?? 1;
  if (!Number.isSafeInteger(copies) || copies < 0)
    throw new RangeError('exemplare must be a whole number ≥ 0');
  return copies;
}

/**
 * A live work as its replace finds it, under its locks: version, title, stored and live copy
 * counts, the persons it links in order, and which of `persons` (those it will link) are live
 * persons, with their names. One statement, prepared (ADR 0068).
 */
const CURRENT = prepare<
  { id: number; persons: number[] | string },
  {
    titel: string;
    updated_at: string;
    exemplare: number;
    live: number;
    linked: JsonRows<[number]>;
    persons: JsonRows<[number, string, string]>;
  },
  DB
>((db: Kysely<DB>) => {
  const linked = jsonRows<[number], DB>(db, [sql.ref('person_id')], sql.ref('position'));
  const named = jsonRows<[number, string, string], DB>(
    db,
    ['id', 'vorname', 'nachname'].map((c) => sql.ref(c)),
    sql.ref('id'),
  );
  return db
    .selectFrom('works')
    .select(['titel', 'updated_at', 'exemplare'])
    .select(liveCopyCount(db).as('live'))
    .select(
      sql<JsonRows<[number]>>`(select ${linked} from person_work where work_id = works.id)`.as('linked'),
    )
    .select(
      sql<JsonRows<[number, string, string]>>`(select ${named} from persons
        where ${inIdList(db, 'persons.id', 'persons')} and deleted_at is null)`.as('persons'),
    )
    .where('id', '=', param<number>('id'))
    .where('deleted_at', 'is', null);
});

async function currentWork(trx: Kysely<DB>, id: number, personIds: readonly number[]) {
  const row = await CURRENT.executeTakeFirst(trx, { id, persons: idList(trx, [...new Set(personIds)]) });
  return (
    row && {
      ...row,
      live: Number(row.live),
      linked: parseJsonRows(row.linked).map(([person]) => person),
      persons: parseJsonRows(row.persons).map(([id, vorname, nachname]) => ({ id, vorname, nachname })),
    }
  );
}

export function createWorkStore(db: Kysely<DB>, options?: StoreOptions): SqlWorkStore {
  const { capabilities, now, maxPageSize } = resolveOptions(db, options);
  // Reads show kept copies as of now (copies/read.ts, ADR 0067).
  const clock: ReadClock = { now, holdDays: options?.holdDays ?? HOLD_DAYS };

  /**
   * One person's works are few beside the catalogue: collect them (fenced, through
   * person_work_person), test each against the search, sort only those (ADR 0094). The list order
   * or a search's plans would walk the whole list, or read every match of a common word, to find
   * the few that are theirs.
   */
  const authorPlan = (q: string | undefined): FullTextPlan | null => {
    if (!q?.trim()) return { kind: 'filter', filter: { where: sql<SqlBool>`true`, collect: true } };
    const where = fullTextRowTest(capabilities, WORK_SEARCH, q);
    return where && { kind: 'filter', filter: { where, collect: true } };
  };

  return {
    byId: (id) => (Number.isSafeInteger(id) && id > 0 ? loadWork(db, id, clock) : Promise.resolve(null)),

    bySlug: (slug) => loadWorkBySlug(db, slug, clock),

    async list(request: WorkPageRequest): Promise<WorkPage> {
      const limit = clampLimit(request.limit, maxPageSize);
      // The search's plan, made once: the list and the disjunctive counts may both need it.
      let searchPlan: Promise<FullTextPlan | null | undefined> | undefined;
      const planOf = (filters: WorkFacetFilters | undefined) =>
        filters?.autor !== undefined
          ? authorPlan(request.q)
          : request.q?.trim()
            ? (searchPlan ??= planFullText(db, capabilities, WORK_SEARCH, request.q))
            : undefined;
      /** The ids of up to `cap` + 1 matches of the search under `filters`, as the total reads them. */
      const sampleOf = async (filters: WorkFacetFilters | undefined, cap: number) => {
        const plan = await planOf(filters);
        if (plan === null) return [];
        return keyedList(db, 'works', scopeOf(filters)).sample(plan, cap);
      };
      const plan = await planOf(request.facets);
      if (plan === null) return { items: [], total: { count: 0, exact: true }, facets: NO_FACETS };
      // Facet filters narrow the rows every plan reads (keyed-list.ts `scope.where`).
      const where = facetCondition(request.facets);
      const list = keyedList(db, 'works', scopeOf(request.facets));
      const relevance = request.order === 'relevanz' && plan !== undefined;
      const unfiltered = plan === undefined && where === undefined;
      // The unfiltered list has its count; it reads only the ids the facets count. A filtered
      // list counts to FACET_SAMPLE only: a filter most matches fail (a decade beside a common
      // word) makes every match counted cost a row read and a test.
      const cap = unfiltered || where !== undefined ? FACET_SAMPLE : SEARCH_COUNT_CAP;
      // The first matches, read once (ADR 0094): the total, the facets and — when they come in
      // list order — a first page's rows, which would otherwise be read from the index again
      // (ADR 0113). On PostgreSQL too (ADR 0122): the page waits for the whole sample, but a
      // second scan beside it cost more than the wait where the server and the database share
      // the machine's cores.
      let first: Promise<number[]> | undefined;
      const firstMatches = () => (first ??= list.sample(plan, cap));
      const pageFromFirst = list.sampleInOrder(plan);
      // The total and the facets from those matches; an applied facet's own values are counted
      // without it (OR within a facet, ADR 0099): one more bounded read per facet applied.
      const counting = totalFor(
        async (): Promise<{ total: Total; facets: WorkFacets }> => {
          const ids = await firstMatches();
          const exact = ids.length <= cap;
          const sideBySide = capabilities.concurrentReads;
          const [total, facets] = await Promise.all([
            unfiltered ? list.total(undefined) : { count: exact ? ids.length : cap, exact },
            disjunctiveFacets(
              db,
              request.facets,
              countFacets(db, ids, ids.length <= FACET_SAMPLE, { sideBySide }),
              (others) => sampleOf(others, FACET_SAMPLE),
              { sideBySide },
            ),
          ]);
          return { total, facets };
        },
        request,
        capabilities.concurrentReads,
        (cursor) => (relevance ? decodeRelevance(cursor) : decodeCursor(cursor, LIST_KEY_TYPES)),
      );
      const total = async () => (await counting()).total;
      const plainPage = (range: KeysetRequest) =>
        keysetPage(
          range,
          searchKeyset(plan, {
            keyTypes: LIST_KEY_TYPES,
            async rows(predicate, range, n) {
              // A page forwards from within the first matches is their next rows, when those come
              // in list order (ADR 0113, 0122, 0123).
              const within = pageFromFirst ? await rowsWithin(db, firstMatches, cap, range, n) : undefined;
              return within ?? list.inOrder(predicate, range, n).select(LISTED_COLUMNS).limit(n).execute();
            },
            keys: list.keys,
            keyAt: list.keyAt,
            keyOf: (row) => [row.sort_key, row.id],
          }),
        );
      // "Did you mean" (ADR 0079), for a first page with few hits: asked once the count is
      // known, beside the page's rows where the count is too (ADR 0120).
      const q = request.q;
      const suggestion = besidePage(async () => {
        const counted = await total();
        return q && !request.after && !request.before && counted.exact && counted.count < SUGGEST_BELOW
          ? suggestQuery(db, capabilities, WORK_SEARCH, q)
          : undefined;
      }, capabilities.concurrentReads);
      const range = { after: request.after, before: request.before, limit };
      const page = relevance
        ? await relevancePage(
            range,
            await exactMatches(db, request.q!, exactKeysOf(db, where)),
            plainPage,
            (ids) => worksByIds(db, ids),
          )
        : await plainPage(range);
      const persons = await personsOfWorks(
        db,
        page.items.map((w) => w.id),
      );
      const counted = await total();
      const suggested = await suggestion();
      return {
        ...page,
        total: counted,
        facets: (await counting()).facets,
        ...(suggested !== undefined && { suggestion: suggested }),
        items: page.items.map(({ sort_key: _key, ...work }) => ({
          ...work,
          personen: persons.get(work.id) ?? [],
        })),
      };
    },

    async newest(limit) {
      // Newest first by primary key (ids grow with every insert): one index range, at any size.
      const rows = await db
        .selectFrom('works')
        .select(['id', 'slug', 'titel', 'jahr'])
        .where('deleted_at', 'is', null)
        .orderBy('id', 'desc')
        .limit(Math.max(1, Math.min(limit, 100)))
        .execute();
      const persons = await personsOfWorks(
        db,
        rows.map((w) => w.id),
      );
      return rows.map((w) => ({ ...w, personen: persons.get(w.id) ?? [] }));
    },

    async create(input) {
      const exemplare = checkCopies(input.exemplare);
      return createWithGeneratedSlug(input.slug === undefined, () =>
        db.transaction().execute(async (trx) => {
          // First the lock (ADR 0088): no other writer can take the slug until commit.
          await lockSubjects(trx, ['slugs:work', ...(input.personIds ?? []).map(subject.person)]);
          const slug = await slugForNew(trx, 'work', input.slug, input.titel);
          const at = now();
          const { id } = await trx
            .insertInto('works')
            .values({
              slug,
              titel: input.titel,
              jahr: input.jahr ?? null,
              // Counted from its copies below (copies/count.ts).
              exemplare: 0,
              sort_key: workSortKey(input.titel),
              search_text: workSearchText(input.titel, []),
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const persons = await linkPersons(trx, id, input.personIds ?? []);
          await trx
            .updateTable('works')
            .set({ search_text: workSearchText(input.titel, persons) })
            .where('id', '=', id)
            .execute();
          // The copies the work is written with, each with its own row (copies/count.ts).
          const nachname = persons[0]?.nachname ?? null;
          await setCopyCount(trx, { workId: id, titel: input.titel, nachname, wanted: exemplare, at });
          await touchPersonsOf(trx, id, at);
          await placeUnranked(trx, capabilities, 'works');
          return loadLive(trx, id, clock);
        }),
      );
    },

    async replace(id, input, expect) {
      const exemplare = checkCopies(input.exemplare);
      const expected = expectedText(expect);
      return compareAndSet(expected, () =>
        db.transaction().execute(async (trx) => {
          // The work, the persons showing it now and those it will show (ADR 0088).
          await lockShowing(trx, 'works', id, (input.personIds ?? []).map(subject.person));
          // Under those locks: the work, its links as they are and its copies' count.
          const current = await currentWork(trx, id, input.personIds ?? []);
          if (!current) return null;
          const shownBefore = current.linked;
          const persons = await linkPersons(trx, id, input.personIds ?? [], shownBefore, current.persons);
          // The compare-and-set and the new fields in one statement (ADR 0104); it also holds
          // the row until commit, before anything else of the work is written.
          const at = await claimRow(trx, 'works', id, expected ?? current.updated_at, now(), {
            titel: input.titel,
            jahr: input.jahr ?? null,
            sort_key: workSortKey(input.titel),
            search_text: workSearchText(input.titel, persons),
          });
          // The persons linked before and after show this work (title, URL, link) differently —
          // unless neither its title nor its persons change (a year, the copies: not on their page).
          const linked = persons.map((p) => p.id);
          if (current.titel !== input.titel || !sameOrder(shownBefore, linked))
            await touchRows(trx, 'persons', [...shownBefore, ...linked], at);
          // `exemplare` as written: copies added, or free ones withdrawn (copies/count.ts). When
          // that changes them, the queue is settled as of now around it (ADR 0059, 0067): a copy
          // whose hold ran out is free to withdraw, as the reads show, and copies added go to
          // members waiting.
          const queue: LockedWork = { id, exemplare, deletedAt: null };
          const nachname = persons[0]?.nachname ?? null;
          const counted = await setCopyCount(trx, {
            workId: id,
            titel: input.titel,
            nachname,
            wanted: exemplare,
            at,
            beforeChange: () => settleWork(trx, queue, at, clock.holdDays, false),
            known: { live: current.live, stored: current.exemplare },
          });
          if (counted === 'copies-on-loan')
            throw new CopiesOnLoanError(`work ${id}: too few copies free to withdraw`);
          if (counted === 'ok') await settleWork(trx, queue, at, clock.holdDays, false);
          // A new title may move the work in the list: it is ranked again (storage/list-rank.ts).
          await placeUnranked(trx, capabilities, 'works');
          return loadLive(trx, id, clock);
        }),
      );
    },

    // A work with a copy on loan stays (→ 409): checked inside the delete's transaction, after
    // the change counter, so a borrow committed meanwhile is seen; throwing rolls it all back.
    delete: (id, expect) =>
      softDelete(db, 'works', id, expect, now, async (trx, workId, at) => {
        if (await hasCopyOnLoan(trx, workId))
          throw new CopiesOnLoanError(`work ${workId} has a copy on loan`);
        await touchPersonsOf(trx, workId, at);
      }),
  };
}

/** The works the facet filters keep, as keyed-list.ts reads them (ADR 0094, 0099). */
function scopeOf(filters: WorkFacetFilters | undefined): ListScope | undefined {
  const where = facetCondition(filters);
  const alternatives = facetAlternatives(filters);
  const terms = facetTerms(filters);
  return where && { where, counted: 'works', ...(alternatives && { alternatives }), ...(terms && { terms }) };
}

/**
 * The exact part's read (relevance.ts): the keys of the live works of persons (by id) or by title
 * sort key, in list order, at most EXACT_CAP; the page then reads the rows of the few it shows.
 * The persons are one parameter, so the text is one per facet filter's shape: kept prepared with
 * a generic plan (ADR 0121), not parsed and planned for every relevance page.
 */
export function exactKeysQuery(
  db: Kysely<DB>,
  facets: Expression<SqlBool> | undefined,
  persons: readonly number[] | undefined,
  titleKey: string | undefined,
): CompiledQuery<Keyed> {
  if (persons !== undefined && facets === undefined && titleKey === undefined) {
    // The links carry their work's key (migration 0035): one index range per person, in which a
    // deleted work's links have none; no row of `works` is read (ADR 0124).
    const keys = db
      .selectFrom('person_work')
      .select(['work_id as id', 'work_sort_key as sort_key'])
      .distinct()
      .where(inIds(db, 'person_id', persons))
      .where('work_sort_key', 'is not', null)
      .$narrowType<{ sort_key: string }>();
    return withGenericPlan(keys.orderBy('sort_key').orderBy('id').limit(EXACT_CAP).compile());
  }
  let query = db
    .selectFrom('works')
    .select(['works.id', 'works.sort_key'])
    .where('works.deleted_at', 'is', null);
  // The exact part shows only works the facet filters keep, like the rest (ADR 0094).
  if (facets !== undefined) query = query.where(facets);
  if (titleKey !== undefined) query = query.where('works.sort_key', '=', titleKey);
  if (persons !== undefined)
    query = query.where('works.id', 'in', (eb) =>
      eb
        .selectFrom('person_work')
        .select('work_id')
        .where(inIds(db, 'person_id', persons)),
    );
  return withGenericPlan(query.orderBy('works.sort_key').orderBy('works.id').limit(EXACT_CAP).compile());
}

function exactKeysOf(db: Kysely<DB>, facets: Expression<SqlBool> | undefined) {
  return async (persons: readonly number[] | undefined, titleKey: string | undefined) =>
    (await db.executeQuery(exactKeysQuery(db, facets, persons, titleKey))).rows;
}

const NO_FACETS: WorkFacets = { exact: true, autor: [], dekade: [], verfuegbar: [], medientyp: [] };

const WORK_SEARCH = {
  idColumn: 'works.id',
  ftsTable: 'works_fts',
  vectorColumn: 'works.search_vector',
  rankedFtsTable: 'works_ranked_fts',
  termIndex: true,
};
