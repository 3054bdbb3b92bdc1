// Facets of the works list (ADR 0094, 0099) and of the persons list (ADR 0102): the filters as
// SQL conditions on `works` rows, and the counts per author, decade, availability and item type
// over a list's matches (a person's decades: those of its live works, kept in `person_decades`). Counting reads
// at most FACET_SAMPLE matches (their ids come from the same plan as the page), so it costs what
// a page and its total cost, at any catalogue size; past that many the counts are lower bounds.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { detectDialect, param, prepare } from '../../storage/index.ts';
import { isFreeCopy } from '../copies/index.ts';
import type { DB } from '../tables.ts';
import { FACET_NAMES, type FacetName, type WorkFacetFilters, type WorkFacets } from '../model.ts';

/**
 * Matches the facets are counted over: the first ones of the read the total makes. Grouping 500
 * ids by four facets cost ≈ 7 ms of CPU at 1,000,000 works (each facet 1–2 ms), 100 ids ≈ 1 ms;
 * beyond this many matches the counts are lower bounds (ADR 0094).
 */
export const FACET_SAMPLE = 100;

/** The lists with facets: the works list, and the persons list (ADR 0102). */
export type FacetedList = 'works' | 'persons';

/**
 * The facets each list offers, in the order their parameters are written. The persons list has
 * the decades of their works only: availability changes with every loan and with the clock (a
 * hold runs out), so no trigger can keep it per person (ADR 0102).
 */
export const LIST_FACETS: Readonly<Record<FacetedList, readonly FacetName[]>> = {
  works: FACET_NAMES,
  persons: ['dekade'],
};

/** Authors listed in the author facet: those with the most matches (then by name). */
export const AUTHOR_FACET_SIZE = 10;

export function hasFacetFilter(filters: WorkFacetFilters | undefined): boolean {
  return filters !== undefined && FACET_NAMES.some((name) => filters[name] !== undefined);
}

/** The filters without one facet's (undefined: none left): whose list that facet's values are counted over. */
export function withoutFacet(
  filters: WorkFacetFilters | undefined,
  name: FacetName,
): WorkFacetFilters | undefined {
  if (filters === undefined) return undefined;
  const { [name]: _lifted, ...others } = filters;
  return hasFacetFilter(others) ? others : undefined;
}

/**
 * The first year of a work's decade, floored (`-5` → `-10`): the expression migration 0025
 * indexes, written the same (the engines match an expression index by its text).
 */
const decadeOf = sql<number>`(jahr - ((jahr % 10) + 10) % 10)`;

/** "A copy of this work can be borrowed now" (the work's `verfuegbar` > 0, copies/free.ts). */
const freeCopyOf = (work: Expression<unknown>) =>
  sql<SqlBool>`exists (select 1 from copies where copies.work_id = ${work} and ${isFreeCopy()})`;

/** `expression = value`, or `in (…)` for several: the engines read one value as an equality. */
const isAnyOf = (expression: Expression<unknown>, values: readonly (string | number)[]) =>
  values.length === 1
    ? sql<SqlBool>`${expression} = ${values[0]}`
    : sql<SqlBool>`${expression} in (${sql.join(values)})`;

/**
 * The filters as one condition on a `works` row in scope (undefined: none given): within a
 * facet any value (OR), between facets all (AND) (ADR 0099).
 */
export function facetCondition(filters: WorkFacetFilters | undefined): Expression<SqlBool> | undefined {
  if (!hasFacetFilter(filters)) return undefined;
  const id = sql.ref('works.id');
  const parts: Expression<SqlBool>[] = [];
  const { autor, dekade, verfuegbar, medientyp } = filters!;
  if (autor !== undefined)
    parts.push(sql<SqlBool>`${id} in (select person_work.work_id from person_work
      join persons on persons.id = person_work.person_id
      where ${isAnyOf(sql.ref('persons.slug'), autor)} and persons.deleted_at is null)`);
  // The indexed expression (migration 0025), so a decade's works come in list order from it.
  if (dekade !== undefined) parts.push(isAnyOf(decadeOf, dekade));
  // Both values: every work (a copy is free or none is), so no condition.
  if (verfuegbar?.length === 1)
    parts.push(verfuegbar[0] === 'ja' ? freeCopyOf(id) : sql<SqlBool>`not ${freeCopyOf(id)}`);
  if (medientyp !== undefined)
    parts.push(sql<SqlBool>`exists (select 1 from copies where copies.work_id = ${id}
      and copies.deleted_at is null and ${isAnyOf(sql.ref('copies.item_type'), medientyp)})`);
  return parts.length > 0 ? sql<SqlBool>`(${sql.join(parts, sql` and `)})` : undefined;
}

/**
 * Several decades as one condition each (the other filters beside it), for keyed-list.ts to read
 * each decade's rows in list order from its index (migration 0025) and merge them: the engines
 * read `decade in (…)` from the index but then sort every row of those decades (ADR 0099).
 * Undefined for one decade or none: its index range is in list order already.
 */
export function facetAlternatives(filters: WorkFacetFilters | undefined): Expression<SqlBool>[] | undefined {
  const decades = filters?.dekade;
  if (decades === undefined || decades.length < 2) return undefined;
  return decades.map((dekade) => facetCondition({ ...filters, dekade: [dekade] })!);
}

/**
 * A decade's key in the works' term index (PostgreSQL, migration 0034's `work_decade_term`,
 * ADR 0113): a space first, which no word's key has.
 */
export const decadeTerm = (decade: number): string => ` dekade ${decade}`;

/**
 * The decade filter as keys of the works' term index, one per decade (ADR 0113), and the other
 * filters as the condition left beside them; undefined without a decade.
 */
export function facetTerms(
  filters: WorkFacetFilters | undefined,
): { keys: string[]; rest: Expression<SqlBool> | undefined } | undefined {
  const decades = filters?.dekade;
  if (decades === undefined) return undefined;
  return { keys: decades.map(decadeTerm), rest: facetCondition(withoutFacet(filters, 'dekade')) };
}

/**
 * The persons list's filters (ADR 0102) as a condition on a `persons` row (`where`: a person
 * with a live work of any chosen decade, one primary-key probe of `person_decades`), and as one
 * condition per decade on the kept row `src`, whose index yields that decade's persons in list
 * order (keyed-list.ts `keyed`). Undefined when no decade is chosen.
 */
export function personFacetScope(
  filters: WorkFacetFilters | undefined,
): { where: Expression<SqlBool>; each: Expression<SqlBool>[] } | undefined {
  const decades = filters?.dekade;
  if (decades === undefined) return undefined;
  return {
    where: sql<SqlBool>`exists (select 1 from person_decades where person_decades.person_id = persons.id
      and ${isAnyOf(sql.ref('person_decades.decade'), decades)})`,
    each: decades.map((decade) => sql<SqlBool>`src.decade = ${decade}`),
  };
}

interface FacetRow {
  readonly facet: FacetName;
  readonly value: string;
  readonly id: number | null;
  readonly a: string | null;
  readonly b: string | null;
  readonly n: number | string;
}

const none = sql`cast(null as text)`;

/** A facet's grouping of the ids in `s`, as rows of FacetRow (built when a statement is). */
const groupingOf = (name: FacetName): RawBuilder<FacetRow> =>
  ({
    autor: sql<FacetRow>`select 'autor' as facet, persons.slug as value, persons.id as id, persons.vorname as a,
        persons.nachname as b, count(*) as n
      from s join person_work on person_work.work_id = s.id
      join persons on persons.id = person_work.person_id
      where persons.deleted_at is null
      group by persons.id, persons.slug, persons.vorname, persons.nachname`,
    dekade: sql<FacetRow>`select 'dekade' as facet, cast(${decadeOf} as text) as value, null as id, ${none} as a,
        ${none} as b, count(*) as n
      from s join works on works.id = s.id
      where works.jahr is not null
      group by ${decadeOf}`,
    verfuegbar: sql<FacetRow>`select 'verfuegbar' as facet, v as value, null as id, ${none} as a, ${none} as b,
        count(*) as n
      from (select case when ${freeCopyOf(sql.ref('s.id'))} then 'ja' else 'nein' end as v from s) free
      group by v`,
    medientyp: sql<FacetRow>`select 'medientyp' as facet, item_types.code as value, null as id,
        item_types.name_de as a, item_types.name_en as b, count(distinct copies.work_id) as n
      from s join copies on copies.work_id = s.id
      join item_types on item_types.code = copies.item_type
      where copies.deleted_at is null
      group by item_types.code, item_types.name_de, item_types.name_en`,
  })[name];

/**
 * A person's decades (ADR 0102): those of its live works, one row each in `person_decades`
 * (migration 0031), so a decade counts the persons in `s` with a work of it.
 */
const personGroupingOf = (name: FacetName, pg: boolean): RawBuilder<FacetRow> => {
  if (name !== 'dekade') throw new Error(`the persons list has no facet ${name}`);
  // PostgreSQL may hash-join a scan of the whole table for 100 ids (it did before the table's
  // first vacuum: 6–30 ms at 50,000 works); a fenced lateral read probes the primary key per id.
  const decades = pg
    ? sql`s cross join lateral (select decade from person_decades where person_decades.person_id = s.id
        offset 0) d`
    : sql`s join person_decades d on d.person_id = s.id`;
  return sql<FacetRow>`select 'dekade' as facet, cast(d.decade as text) as value, null as id,
      ${none} as a, ${none} as b, count(*) as n
    from ${decades}
    group by d.decade`;
};

/**
 * A counting statement for some facets, built once per engine (storage/prepared.ts): the ids
 * are its one parameter, so PostgreSQL keeps it parsed and planned per connection (ADR 0068).
 */
const countingOf = (names: readonly FacetName[], list: FacetedList) =>
  prepare<{ ids: number[] | string }, FacetRow, DB>((db: Kysely<DB>) => {
    const pg = detectDialect(db) === 'postgres';
    const source = pg
      ? sql`select unnest(${param<number[]>('ids')}::int[]) as id`
      : sql`select value as id from json_each(${param<string>('ids')})`;
    const statement = sql<FacetRow>`with s(id) as (${source})
      ${sql.join(
        names.map((name) => (list === 'works' ? groupingOf(name) : personGroupingOf(name, pg))),
        sql`\n    union all\n    `,
      )}`;
    return { compile: () => statement.compile(db) };
  });

/**
 * Per list, every facet at once (a list's own counts), and each alone (an applied facet's,
 * ADR 0099).
 */
const countings = (list: FacetedList) => ({
  all: countingOf(LIST_FACETS[list], list),
  one: Object.fromEntries(LIST_FACETS[list].map((name) => [name, countingOf([name], list)])) as Partial<
    Record<FacetName, ReturnType<typeof countingOf>>
  >,
});
const COUNTING: Record<FacetedList, ReturnType<typeof countings>> = {
  works: countings('works'),
  persons: countings('persons'),
};

/** Which counts `countFacets` makes, and how. */
export interface FacetCounting {
  /** That facet's counts alone, the others empty (an applied facet's, ADR 0099). */
  readonly only?: FacetName | undefined;
  /** The list whose facets these are (default: the works list). */
  readonly list?: FacetedList | undefined;
  /**
   * The database reads statements side by side (PostgreSQL's pool): each facet is its own
   * statement, all at once, so the counts take as long as the slowest facet, not the four
   * together (ADR 0120). Otherwise one statement counts them all.
   */
  readonly sideBySide?: boolean | undefined;
}

/**
 * The facet counts over the first FACET_SAMPLE of the `ids` (live matches of the list; `exact`:
 * they are all the matches); those the list does not offer are empty. The ids go in once per
 * statement, as an array (PostgreSQL) or JSON text (SQLite). A decade is floored (`-5` →
 * `-10`), as the filter reads it.
 */
export async function countFacets(
  db: Kysely<DB>,
  ids: readonly number[],
  exact: boolean,
  { only, list = 'works', sideBySide = false }: FacetCounting = {},
): Promise<WorkFacets> {
  const counted = [...ids.slice(0, FACET_SAMPLE)];
  const empty: WorkFacets = { exact, autor: [], dekade: [], verfuegbar: [], medientyp: [] };
  if (counted.length === 0) return empty;
  const given = detectDialect(db) === 'postgres' ? counted : JSON.stringify(counted);
  if (only !== undefined && !LIST_FACETS[list].includes(only)) return empty;
  const statements =
    only !== undefined
      ? [COUNTING[list].one[only]!]
      : sideBySide
        ? LIST_FACETS[list].map((name) => COUNTING[list].one[name]!)
        : [COUNTING[list].all];
  const rows = (await Promise.all(statements.map((counting) => counting.execute(db, { ids: given })))).flat();
  const of = (facet: FacetName) => rows.filter((r) => r.facet === facet);
  const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  return {
    exact,
    autor: of('autor')
      .map((r) => ({
        id: Number(r.id),
        slug: r.value,
        vorname: r.a ?? '',
        nachname: r.b ?? '',
        count: Number(r.n),
      }))
      .sort((x, y) => byCount(x, y) || compareNames(x, y))
      .slice(0, AUTHOR_FACET_SIZE),
    dekade: of('dekade')
      .map((r) => ({ value: Number(r.value), count: Number(r.n) }))
      .sort((x, y) => x.value - y.value),
    verfuegbar: (['ja', 'nein'] as const).flatMap((value) => {
      const row = of('verfuegbar').find((r) => r.value === value);
      return row ? [{ value, count: Number(row.n) }] : [];
    }),
    medientyp: of('medientyp')
      .map((r) => ({ value: r.value, name_de: r.a ?? r.value, name_en: r.b ?? r.value, count: Number(r.n) }))
      .sort((x, y) => byCount(x, y) || (x.value < y.value ? -1 : 1)),
  };
}

/**
 * A list's facets counted the disjunctive way (Solr's tag/exclude, VuFind, Koha; ADR 0099):
 * a facet not applied is counted over the list's matches (`own`); an applied facet over the
 * matches of the list without it (`idsWithout`), so its other values say how many works
 * choosing them too would add to. Exact only if every reading was. The readings run at once
 * (ADR 0120): where the database reads one statement at a time they simply queue.
 */
export async function disjunctiveFacets(
  db: Kysely<DB>,
  filters: WorkFacetFilters | undefined,
  own: Promise<WorkFacets>,
  idsWithout: (filters: WorkFacetFilters | undefined) => Promise<readonly number[]>,
  { list = 'works', sideBySide = false }: Omit<FacetCounting, 'only'> = {},
): Promise<WorkFacets> {
  const applied = LIST_FACETS[list].filter((name) => filters?.[name] !== undefined);
  const [counts, ...lifted] = await Promise.all([
    own,
    ...applied.map(async (name) => {
      const ids = await idsWithout(withoutFacet(filters, name));
      return countFacets(db, ids, ids.length <= FACET_SAMPLE, { only: name, list, sideBySide });
    }),
  ]);
  let facets = counts;
  applied.forEach((name, i) => {
    const counted = lifted[i]!;
    facets = { ...facets, exact: facets.exact && counted.exact, [name]: counted[name] };
  });
  return facets;
}

function compareNames(
  x: { nachname: string; vorname: string; slug: string },
  y: { nachname: string; vorname: string; slug: string },
): number {
  return (
    x.nachname.localeCompare(y.nachname, 'de') ||
    x.vorname.localeCompare(y.vorname, 'de') ||
    (x.slug < y.slug ? -1 : 1)
  );
}
