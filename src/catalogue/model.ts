// The catalogue's domain records as the stores return them and the views write them.
// Field names follow the representations (German, docs/representations.md).
import type { Principal } from '../http/resource/types.ts';
import type { Copy } from './copies/index.ts';
import type { RefTarget } from './writes/index.ts';

export interface WorkRef {
  readonly id: number;
  readonly slug: string;
  readonly titel: string;
}

export interface PersonRef {
  readonly id: number;
  readonly slug: string;
  readonly vorname: string;
  readonly nachname: string;
}

export interface Person extends PersonRef {
  /** Image path under the base (e.g. `/bilder/goethe.svg`) or an absolute URL; null → default image. */
  readonly image: string | null;
  /** Username of the person's account, or null when the person has none. */
  readonly username: string | null;
  readonly werke: readonly WorkRef[];
  /** Has a live work (ADR 0062): anyone may see the person; otherwise only they and staff. */
  readonly isPublic: boolean;
  readonly updatedAt: Date;
}

export interface Work extends WorkRef {
  readonly jahr: number | null;
  /** Number of copies the library owns. */
  readonly exemplare: number;
  /** Copies not currently lent out. */
  readonly verfuegbar: number;
  readonly personen: readonly PersonRef[];
  readonly updatedAt: Date;
  /** The live copies with their status (issue 12); absent from stores that do not keep copies. */
  readonly copies?: readonly Copy[];
}

/** What a lookup by slug or id finds: the record, a newer slug (→ 301), a deletion (→ 410), or nothing. */
export type Lookup<T> =
  | { readonly found: T }
  | { readonly movedTo: string }
  /** `privateTo`: the id of a deleted person who was not public, whose 410 only they and staff get. */
  | { readonly gone: true; readonly privateTo?: number }
  | null;

/** Keyset paging: `after`/`before` are opaque cursors taken from a previous page. */
export interface PageRequest {
  readonly q?: string;
  /** A search's order: today's list order, or exact title and name matches first (ADR 0080). */
  readonly order?: 'relevanz';
  readonly after?: string;
  readonly before?: string;
  readonly limit: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Cursor for the next page, absent on the last page. */
  readonly next?: string;
  /** Cursor for the previous page, absent on the first page. */
  readonly prev?: string;
  /** How many items the whole list (or search) has, when the store counts them. */
  readonly total?: Total;
  /**
   * "Meinten Sie …?": the query with its words corrected from the catalogue's own terms, on
   * the first page of a search with fewer than SUGGEST_BELOW hits (ADR 0079).
   */
  readonly suggestion?: string;
}

/** A search with fewer hits than this gets a suggestion when one exists. */
export const SUGGEST_BELOW = 3;

/**
 * A list's size: exact, or (a search with very many matches, ADR 0025) only "more than
 * `count`" — shown as such (`gesamtMehrAls`), never passed off as the total.
 */
export interface Total {
  readonly count: number;
  /** False: there are more than `count`. */
  readonly exact: boolean;
}

export interface WorkSummary extends WorkRef {
  readonly jahr: number | null;
  readonly personen: readonly PersonRef[];
}

export interface PersonSummary extends PersonRef {
  readonly werkAnzahl: number;
}

export interface PersonStore {
  bySlug(slug: string): Promise<Lookup<Person>>;
  byId(id: number): Promise<Lookup<Person>>;
  /**
   * The live person a reference names (a former slug counts as its successor), or null: what a
   * work's `person` field needs, without the person's works that bySlug reads.
   */
  idOf(ref: RefTarget): Promise<number | null>;
  /**
   * Sorted by (nachname, vorname, id); `q` is a full-text search over the names. The persons
   * `viewer` may see (ADR 0062): staff every person; anyone else the public ones and, signed
   * in, themself. No viewer: the public ones.
   */
  list(page: PersonPageRequest, viewer?: Principal | null): Promise<PersonPage>;
}

/** The persons list's filters: the decades of their works (ADR 0102). */
export interface PersonPageRequest extends PageRequest {
  readonly facets?: Pick<WorkFacetFilters, 'dekade'>;
}

export interface PersonPage extends Page<PersonSummary> {
  /** The decade facet's counts (the others empty); absent from stores that do not count facets. */
  readonly facets?: WorkFacets;
}

/** The works list's facets, in the order their parameters are written (ADR 0094). */
export const FACET_NAMES = ['autor', 'dekade', 'verfuegbar', 'medientyp'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/**
 * Facet filters of the works list (ADR 0094, 0099): each facet narrows the list to the works
 * with any of its values (OR within a facet); the facets given must all hold (AND between them).
 * Each facet's values are distinct and in canonical order (`facet-query.ts`), never empty.
 */
export interface WorkFacetFilters {
  /** Persons' slugs: the works of any of them. */
  readonly autor?: readonly string[];
  /** First years of decades (multiples of 10): works whose `jahr` lies in one of them. */
  readonly dekade?: readonly number[];
  /** `ja`: a copy can be borrowed now; `nein`: none can (all lent, kept, missing, or none). */
  readonly verfuegbar?: readonly ('ja' | 'nein')[];
  /** Item types' codes (ADR 0084): works with a live copy of one of those types. */
  readonly medientyp?: readonly string[];
}

export interface WorkPageRequest extends PageRequest {
  readonly facets?: WorkFacetFilters;
}

/**
 * Facet counts over a list's matches (ADR 0094). `exact`: counted over every match; otherwise
 * over the first FACET_SAMPLE of them, so each count is a lower bound.
 */
export interface WorkFacets {
  readonly exact: boolean;
  readonly autor: readonly (PersonRef & { readonly count: number })[];
  readonly dekade: readonly { readonly value: number; readonly count: number }[];
  readonly verfuegbar: readonly { readonly value: 'ja' | 'nein'; readonly count: number }[];
  readonly medientyp: readonly {
    readonly value: string;
    readonly name_de: string;
    readonly name_en: string;
    readonly count: number;
  }[];
}

export interface WorkPage extends Page<WorkSummary> {
  /** Absent from stores that do not count facets. */
  readonly facets?: WorkFacets;
}

export interface WorkStore {
  bySlug(slug: string): Promise<Lookup<Work>>;
  byId(id: number): Promise<Lookup<Work>>;
  /** Sorted by (titel, id); `q` is a full-text search over title and persons' names. */
  list(page: WorkPageRequest): Promise<WorkPage>;
  /** The latest acquisitions: the live works entered last, newest first (the home page). */
  newest?(limit: number): Promise<readonly WorkSummary[]>;
}
