// The works list's facet parameters (ADR 0094, 0099): `autor`, `dekade`, `verfuegbar`,
// `medientyp`, each repeatable (`?dekade=1800&dekade=1810`: works of either decade); the persons
// list reads `dekade` the same way (ADR 0102).
import { HttpError } from '../../http/errors/index.ts';
import type { QueryParams } from '../../http/index.ts';
import { FACET_NAMES, type FacetName, type WorkFacetFilters } from '../model.ts';
import { isValidSlug } from '../slugs.ts';
import { YEAR_MAX, YEAR_MIN } from './input.ts';

/** The shape of an item type's code (`buch`, `dvd`, `praesenz`). */
export const ITEM_TYPE_CODE = /^[a-z0-9_-]{1,40}$/;

/**
 * Values one facet may be given at once: more than a patron ticks (ten decades are a century),
 * few enough that the filter's `in (…)` and each value's index range stay cheap (ADR 0099).
 */
export const MAX_FACET_VALUES = 20;

const badFacet = (detail: string) => new HttpError('SHELFMARK_BAD_REQUEST', { detail });

/**
 * A facet's values in canonical order (ADR 0099): decades by number, the rest as text (slugs,
 * codes; `ja` before `nein`), so every link names a filter one way.
 */
export function inCanonicalOrder<T extends string | number>(name: FacetName, values: readonly T[]): T[] {
  const order =
    name === 'dekade'
      ? (a: T, b: T) => Number(a) - Number(b)
      : (a: T, b: T) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
  return [...values].sort(order);
}

/**
 * One facet's values: distinct, in canonical order, empty ones left out (an empty value is
 * none); 400 for a value `parse` refuses or for more than MAX_FACET_VALUES.
 */
function values<T extends string | number>(
  query: QueryParams,
  name: FacetName,
  parse: (raw: string) => T | undefined,
  refusal: string,
): T[] | undefined {
  const given = [...new Set(query.getAll(name).filter((raw) => raw !== ''))];
  if (given.length === 0) return undefined;
  if (given.length > MAX_FACET_VALUES)
    throw badFacet(`${name} may be given at most ${MAX_FACET_VALUES} times.`);
  const parsed = given.map((raw) => {
    const value = parse(raw);
    if (value === undefined) throw badFacet(refusal);
    return value;
  });
  return inCanonicalOrder(name, [...new Set(parsed)]);
}

function decade(raw: string): number | undefined {
  const year = /^-?[0-9]{1,4}$/.test(raw) ? Number(raw) : NaN;
  return year % 10 === 0 && year >= YEAR_MIN && year <= YEAR_MAX ? year + 0 : undefined; // `-0` + 0 is 0
}

/**
 * A list's facet filters (ADR 0094, 0099), undefined when none is given; `offered`: the facets the
 * list has (the persons list's decade, ADR 0102), the others' parameters are not read. Each facet's
 * values come distinct and in canonical order (`inCanonicalOrder`). 400 for a value no
 * work could have: a malformed slug or item type code, a decade that is not a multiple of 10
 * within the years a work may have, `verfuegbar` other than ja/nein; or for too many values.
 */
export function facetFilters(
  query: QueryParams,
  offered: readonly FacetName[] = FACET_NAMES,
): WorkFacetFilters | undefined {
  const read = <T extends string | number>(
    name: FacetName,
    parse: (raw: string) => T | undefined,
    refusal: string,
  ) => (offered.includes(name) ? values(query, name, parse, refusal) : undefined);
  const autor = read(
    'autor',
    (raw) => (isValidSlug(raw) ? raw : undefined),
    'autor must be the slug of a person.',
  );
  const dekade = read('dekade', decade, 'dekade must be the first year of a decade, e.g. 1900.');
  const verfuegbar = read(
    'verfuegbar',
    (raw) => (raw === 'ja' || raw === 'nein' ? raw : undefined),
    'verfuegbar must be ja or nein.',
  );
  const medientyp = read(
    'medientyp',
    (raw) => (ITEM_TYPE_CODE.test(raw) ? raw : undefined),
    'medientyp must be the code of an item type.',
  );
  const filters: WorkFacetFilters = {
    ...(autor && { autor }),
    ...(dekade && { dekade }),
    ...(verfuegbar && { verfuegbar }),
    ...(medientyp && { medientyp }),
  };
  return Object.keys(filters).length > 0 ? filters : undefined;
}
