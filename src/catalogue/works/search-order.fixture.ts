// The pinned search results of search-order.test.ts: a generated catalogue (ids 1…N in
// generation order, so the same on both engines), the queries (one per class: rare, common,
// one letter, prefix, several words, no hits, spellings), and how a result is summarised.
// search-order.golden.json was recorded from the plain filter-and-sort plan before search plans
// were tuned for large catalogues; a change of plan must not change a row or its place.
import { createHash } from 'node:crypto';
import type { PersonStore, WorkStore } from '../model.ts';

export const GENERATED_WORKS = 2000;

/** Every ~17th work is deleted (deleted works never show). */
export const isDeletedIndex = (i: number): boolean => i % 17 === 3;

export const PINNED_QUERIES: readonly string[] = [
  'der',
  'die',
  'd',
  'a',
  'k',
  '1',
  'kleine',
  'garten',
  'fröhliche',
  'kl',
  'gr',
  'grü',
  'der kleine',
  'die grüne brücke',
  'der kleine garten 3',
  'müller',
  'mueller',
  'Muller',
  'jörg',
  'ömer',
  'weiß',
  'weiss',
  'von arnim',
  '12',
  '11 stille',
  'zzzz',
  'der zzzz',
  'x',
];

/** Person searches share the planner; pinned on the same catalogue's 500 persons. */
export const PINNED_PERSON_QUERIES: readonly string[] = ['müller', 'a', 'jö', 'von', 'max koch', 'zzzz'];

export interface PinnedResult {
  readonly count: number;
  readonly first: readonly number[];
  readonly last: readonly number[];
  /** sha256 of every id in order, comma-separated (first 16 hex digits). */
  readonly digest: string;
}

export function summarise(ids: readonly number[]): PinnedResult {
  return {
    count: ids.length,
    first: ids.slice(0, 25),
    last: ids.slice(-5),
    digest: createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 16),
  };
}

/** Every matching work id, page by page forward through the store (`limit` per page). */
export async function allPages(works: WorkStore | PersonStore, q: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  let after: string | undefined;
  for (let pages = 0; pages <= GENERATED_WORKS; pages++) {
    const page = await works.list({ q, limit, after });
    ids.push(...page.items.map((w) => w.id));
    after = page.next;
    if (after === undefined) return ids;
  }
  throw new Error(`q=${q}: more pages than works`);
}
