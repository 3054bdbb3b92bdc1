// The works list's facet parameters (ADR 0094): `autor`, `dekade`, `verfuegbar`, `medientyp`.
import { HttpError } from '../../http/errors/index.ts';
import type { WorkFacetFilters } from '../model.ts';
import { isValidSlug } from '../slugs.ts';
import { YEAR_MAX, YEAR_MIN } from './input.ts';

/** The shape of an item type's code (`buch`, `dvd`, `praesenz`). */
export const ITEM_TYPE_CODE = /^[a-z0-9_-]{1,40}$/;

const badFacet = (detail: string) => new HttpError('SHELFMARK_BAD_REQUEST', { detail });

/**
 * The works list's facet filters (ADR 0094), undefined when none is given; an empty value is
 * none. 400 for a value no work could have: a malformed slug or item type code, a decade that
 * is not a multiple of 10 within the years a work may have, `verfuegbar` other than ja/nein.
 */
export function facetFilters(query: URLSearchParams): WorkFacetFilters | undefined {
  const given = (name: string) => query.get(name) || undefined;
  const autor = given('autor');
  if (autor !== undefined && !isValidSlug(autor)) throw badFacet('autor must be the slug of a person.');
  const rawDecade = given('dekade');
  let dekade: number | undefined;
  if (rawDecade !== undefined) {
    dekade = /^-?[0-9]{1,4}$/.test(rawDecade) ? Number(rawDecade) : NaN;
    if (!(dekade % 10 === 0 && dekade >= YEAR_MIN && dekade <= YEAR_MAX))
      throw badFacet('dekade must be the first year of a decade, e.g. 1900.');
  }
  const verfuegbar = given('verfuegbar');
  if (verfuegbar !== undefined && verfuegbar !== 'ja' && verfuegbar !== 'nein')
    throw badFacet('verfuegbar must be ja or nein.');
  const medientyp = given('medientyp');
  if (medientyp !== undefined && !ITEM_TYPE_CODE.test(medientyp))
    throw badFacet('medientyp must be the code of an item type.');
  const filters: WorkFacetFilters = {
    ...(autor !== undefined && { autor }),
    ...(dekade !== undefined && { dekade }),
    ...(verfuegbar !== undefined && { verfuegbar }),
    ...(medientyp !== undefined && { medientyp }),
  };
  return Object.keys(filters).length > 0 ? filters : undefined;
}
