// Keyset paging support: opaque cursors and turning a fetched slice into a page. A cursor is
// the sort key of a row, base64url-encoded JSON; cost per page is independent of its depth
// because the query seeks to the key instead of skipping rows (no OFFSET).
import { InvalidCursorError } from './errors.ts';

export type KeyValue = string | number;
export type Key = readonly KeyValue[];

export function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** Decodes a cursor holding exactly `types` (e.g. ['string', 'number']); throws InvalidCursorError. */
export function decodeCursor(cursor: string, types: readonly ('string' | 'number')[]): Key {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('malformed paging cursor');
  }
  const valid =
    Array.isArray(value) &&
    value.length === types.length &&
    value.every(
      (part, i) => typeof part === types[i] && (typeof part !== 'number' || Number.isSafeInteger(part)),
    );
  if (!valid) throw new InvalidCursorError('malformed paging cursor');
  return value as Key;
}

export type Direction = 'after' | 'before';

export interface SliceResult<T> {
  readonly items: T[];
  readonly next?: string;
  readonly prev?: string;
}

/**
 * Builds a page from rows fetched with `limit + 1` in the direction of travel (for `before`
 * the rows come newest-first and are reversed here). `hasOtherSide` says whether rows exist
 * on the other side of the page (the caller checks with a cheap one-row query).
 */
export function slice<T>(
  rows: readonly T[],
  limit: number,
  direction: Direction,
  hasOtherSide: boolean,
  keyOf: (row: T) => Key,
): SliceResult<T> {
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  if (direction === 'before') items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const hasNext = direction === 'after' ? more : hasOtherSide;
  const hasPrev = direction === 'after' ? hasOtherSide : more;
  return {
    items,
    ...(hasNext && last !== undefined ? { next: encodeCursor(keyOf(last)) } : {}),
    ...(hasPrev && first !== undefined ? { prev: encodeCursor(keyOf(first)) } : {}),
  };
}

/** Clamps a requested page size into 1..max. */
export function clampLimit(limit: number, max = 100): number {
  if (!Number.isFinite(limit)) return max;
  return Math.min(max, Math.max(1, Math.trunc(limit)));
}

export interface KeysetRequest {
  readonly after?: string | undefined;
  readonly before?: string | undefined;
  readonly limit: number;
  /**
   * False: the caller does not need to know whether rows lie on the cursor's other side (the
   * page then has no link that way), so that probe is not made. Default true.
   */
  readonly otherSide?: boolean;
}

export interface KeysetQueries<T> {
  /** Sort key types, e.g. ['string', 'number'] for (sort_key, id). */
  readonly keyTypes: readonly ('string' | 'number')[];
  /**
   * Rows strictly after (or, for 'before', strictly before, in descending order) `key`,
   * at most `limit` of them; without a key, the first rows in ascending order.
   */
  fetch(key: Key | undefined, direction: Direction, limit: number): Promise<T[]>;
  /** Whether any row lies at or beyond `key` on the given side ('before' = at or before). */
  exists(key: Key, side: Direction): Promise<boolean>;
  keyOf(row: T): Key;
}

/** One page by keyset: `after` wins over `before`; one extra row tells if there is more. */
export async function keysetPage<T>(
  request: KeysetRequest,
  queries: KeysetQueries<T>,
): Promise<SliceResult<T>> {
  const direction: Direction =
    request.after === undefined && request.before !== undefined ? 'before' : 'after';
  const cursor = direction === 'after' ? request.after : request.before;
  const key = cursor === undefined ? undefined : decodeCursor(cursor, queries.keyTypes);
  const otherSide = direction === 'after' ? 'before' : 'after';
  // The probe beside the rows: where the database reads side by side, the page waits for the
  // slower of the two (one at a time, a connection runs them in turn).
  const [rows, hasOtherSide] = await Promise.all([
    queries.fetch(key, direction, request.limit + 1),
    key !== undefined && request.otherSide !== false && queries.exists(key, otherSide),
  ]);
  return slice(rows, request.limit, direction, hasOtherSide, queries.keyOf);
}
