// `sortierung=relevanz` (docs/decisions/0080-relevance-order.md): a search's exact matches first
// — works whose title is the query, and works of a person whose name is the query — then every
// other match, each part in list order (sort_key, id). The exact part is small: its keys are read
// whole (at most EXACT_CAP), the rows only of those a page shows (ADR 0124). The rest is the
// list's own keyset search with those rows left out, so a page deep in the rest costs what a page
// of today's order costs. Cursors name their part: [0 | 1, sort_key, id].
import type { Kysely } from 'kysely';
import {
  decodeCursor,
  encodeCursor,
  filingName,
  InvalidCursorError,
  sortKey,
  surnameProper,
  withGenericPlan,
} from '../../storage/index.ts';
import type { KeysetRequest, SliceResult } from '../../storage/index.ts';
import type { DB } from '../tables.ts';

/** The exact part holds at most this many works (the first in list order). */
export const EXACT_CAP = 500;
/** Persons read per name form when looking for a name equal to the query. */
const PERSONS_PER_FORM = 100;

export interface Keyed {
  readonly id: number;
  readonly sort_key: string;
}

type Key = readonly [string, number];
const keyOf = (r: Keyed): Key => [r.sort_key, r.id];
const compare = (a: Key, b: Key) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);
const folded = (text: string) => sortKey(text);

/** Whether a person's name is the query: surname (with or without its particles) or full name. */
function nameIs(q: string, p: { vorname: string; nachname: string }): boolean {
  const proper = surnameProper(p.nachname);
  const forms = [p.nachname, proper, `${p.vorname} ${p.nachname}`, `${p.vorname} ${proper}`];
  return forms.some((form) => folded(form) === q);
}

/**
 * The live works matching `q` exactly, in list order, at most EXACT_CAP: the title folded as
 * sort keys are (case, accents) equals the query, or a live person's name does. Persons are
 * found through their sort key (surname as filed first): each way of reading the query's last
 * words as the surname is one index range.
 */
export async function exactMatches<R extends Keyed>(
  db: Kysely<DB>,
  q: string,
  works: (ids: readonly number[] | undefined, titleKey: string | undefined) => Promise<R[]>,
): Promise<R[]> {
  const query = folded(q);
  if (query === '') return [];
  const words = query.split(' ');
  // Every reading in one statement (one round trip, not one per word of the query), beside the
  // read of the titles.
  const forms = words.map((_, k) => {
    const surname = folded(filingName(words.slice(k).join(' ')));
    const range = db
      .selectFrom('persons')
      .select(['id', 'vorname', 'nachname'])
      .where('deleted_at', 'is', null)
      .where('sort_key', '>=', surname)
      .where('sort_key', '<', `${surname}\u{10FFFF}`)
      .orderBy('sort_key')
      .limit(PERSONS_PER_FORM);
    return db.selectFrom(range.as(`form${k}`)).selectAll();
  });
  // One text per number of words: kept prepared with a generic plan (ADR 0115).
  const everyForm = forms.slice(1).reduce((all, form) => all.unionAll(form), forms[0]!);
  const [{ rows }, byTitle] = await Promise.all([
    db.executeQuery(withGenericPlan(everyForm.compile())),
    works(undefined, query),
  ]);
  const persons = new Map<number, { vorname: string; nachname: string }>();
  for (const p of rows) if (nameIs(query, p)) persons.set(p.id, p);
  const byPerson = persons.size > 0 ? await works([...persons.keys()], undefined) : [];
  const seen = new Set<number>();
  return [...byTitle, ...byPerson]
    .filter((r) => !seen.has(r.id) && seen.add(r.id))
    .sort((a, b) => compare(keyOf(a), keyOf(b)))
    .slice(0, EXACT_CAP);
}

/** One page of today's order, from a (sort_key, id) cursor, as `keysetPage` gives it. */
export type PlainPage<R> = (request: KeysetRequest) => Promise<SliceResult<R>>;

/** Decodes a relevance cursor; InvalidCursorError (→ 400) for anything else. */
export function decodeRelevance(cursor: string): { tier: 0 | 1; key: Key } {
  const [tier, key, id] = decodeCursor(cursor, ['number', 'string', 'number']);
  if (tier !== 0 && tier !== 1) throw new InvalidCursorError('malformed paging cursor');
  return { tier, key: [key as string, id as number] };
}

/**
 * A page in relevance order: `exact` (keys, in list order) first, then the plain matches not in
 * it. `rowsOf` reads the rows of the exact keys a page shows (live ones, in any order).
 */
export async function relevancePage<R extends Keyed>(
  request: KeysetRequest,
  exact: readonly Keyed[],
  plain: PlainPage<R>,
  rowsOf: (ids: readonly number[]) => Promise<R[]>,
): Promise<SliceResult<R>> {
  const exactIds = new Set(exact.map((r) => r.id));
  const tierOf = (r: Keyed) => (exactIds.has(r.id) ? 0 : 1);
  const cursorOf = (r: Keyed) => encodeCursor([tierOf(r), r.sort_key, r.id]);
  const plainCursor = (key: Key) => encodeCursor(key);
  const { limit } = request;

  /**
   * Plain matches outside `exact` from a plain cursor: up to n + 1 (the extra one says "more").
   * Each plain page asks for as many more rows as the exact part may take out of it (at most
   * n + 1), so one page is enough unless the exact part is large; and it does not ask what lies
   * behind its cursor, which only the relevance order's own ends decide.
   */
  async function rest(direction: 'after' | 'before', from: string | undefined, n: number) {
    const rows: R[] = [];
    const spare = Math.min(exactIds.size, n + 1);
    let cursor = from;
    for (;;) {
      const page = await plain({ [direction]: cursor, limit: n + 1 + spare, otherSide: false });
      const kept = page.items.filter((r) => !exactIds.has(r.id));
      if (direction === 'after') rows.push(...kept);
      else rows.unshift(...kept);
      cursor = direction === 'after' ? page.next : page.prev;
      if (rows.length > n || cursor === undefined) break;
    }
    return direction === 'after' ? rows.slice(0, n + 1) : rows.slice(Math.max(0, rows.length - n - 1));
  }

  /** Whether anything comes before `first` in relevance order. */
  async function before(first: Keyed): Promise<boolean> {
    if (tierOf(first) === 0) return compare(keyOf(exact[0]!), keyOf(first)) < 0;
    return exact.length > 0 || (await rest('before', plainCursor(keyOf(first)), 0)).length > 0;
  }

  /**
   * The page's rows: the exact keys' rows read now, the plain rows as they are. A work deleted
   * since its key was read is left out.
   */
  async function rowsFor(items: readonly (Keyed | R)[]): Promise<R[]> {
    const wanted = items.filter((r) => exactIds.has(r.id)).map((r) => r.id);
    const found = new Map(wanted.length > 0 ? (await rowsOf(wanted)).map((r) => [r.id, r]) : []);
    return items.flatMap((r) => {
      if (!exactIds.has(r.id)) return [r as R];
      const row = found.get(r.id);
      return row === undefined ? [] : [row];
    });
  }

  const page = async (
    keys: (Keyed | R)[],
    more: boolean,
    backwards: boolean,
    other: boolean,
  ): Promise<SliceResult<R>> => {
    const items = await rowsFor(keys);
    const first = items[0];
    const last = items.at(-1);
    const next = backwards ? other : more;
    const prev = backwards ? more : other;
    return {
      items,
      ...(next && last && { next: cursorOf(last) }),
      ...(prev && first && { prev: cursorOf(first) }),
    };
  };

  if (request.after !== undefined || request.before === undefined) {
    const at = request.after === undefined ? undefined : decodeRelevance(request.after);
    let items: (Keyed | R)[];
    let more: boolean;
    if (at === undefined || at.tier === 0) {
      const head = at === undefined ? [...exact] : exact.filter((r) => compare(keyOf(r), at.key) > 0);
      if (head.length > limit) {
        items = head.slice(0, limit);
        more = true;
      } else {
        const need = limit - head.length;
        const tail = await rest('after', undefined, need);
        items = [...head, ...tail.slice(0, need)];
        more = tail.length > need;
      }
    } else {
      const tail = await rest('after', plainCursor(at.key), limit);
      items = tail.slice(0, limit);
      more = tail.length > limit;
    }
    const other = at !== undefined && items.length > 0 && (await before(items[0]!));
    return page(items, more, false, other);
  }

  const at = decodeRelevance(request.before);
  let items: (Keyed | R)[];
  let more: boolean;
  if (at.tier === 1) {
    const tail = await rest('before', plainCursor(at.key), limit);
    if (tail.length > limit) {
      items = tail.slice(1);
      more = true;
    } else {
      const take = limit - tail.length;
      items = [...exact.slice(Math.max(0, exact.length - take)), ...tail];
      more = exact.length > take;
    }
  } else {
    const head = exact.filter((r) => compare(keyOf(r), at.key) < 0);
    items = head.slice(Math.max(0, head.length - limit));
    more = head.length > limit;
  }
  return page(items, more, true, items.length > 0);
}
