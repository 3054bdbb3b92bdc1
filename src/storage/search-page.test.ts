import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type SqlBool } from 'kysely';
import type { FullTextPlan, RowFilter } from './fulltext-plan.ts';
import type { Key } from './keyset.ts';
import { searchRows, WALK_WINDOW, type KeyRange, type KeysetScan } from './search-page.ts';

// An in-memory list: rows with a unique key (text, id); `hit` marks the search's matches, which
// every plan predicate (probe, sweep, filter) selects, as the SQL does.
interface Row {
  readonly key: [string, number];
  readonly hit: boolean;
  readonly live: boolean;
}

function compare(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

function inRange(row: Row, range: KeyRange): boolean {
  const sign = range.direction === 'after' ? 1 : -1;
  if (range.from) {
    const c = sign * compare(row.key, range.from);
    if (c < 0 || (c === 0 && !range.inclusive)) return false;
  }
  return !range.to || sign * compare(row.key, range.to) <= 0;
}

function fakeScan(rows: readonly Row[]): KeysetScan<Row> {
  const sorted = [...rows].sort((a, b) => compare(a.key, b.key));
  const run = (predicate: RowFilter | undefined, range: KeyRange, limit: number, live: boolean) => {
    const ordered = range.direction === 'after' ? sorted : [...sorted].reverse();
    return ordered
      .filter((r) => (!live || r.live) && inRange(r, range) && (predicate === undefined || r.hit))
      .slice(0, limit);
  };
  return {
    keyTypes: ['string', 'number'],
    async rows(predicate, range, limit) {
      return run(predicate, range, limit, true);
    },
    async keys(predicate, range, limit) {
      return run(predicate, range, limit, true);
    },
    async keyAt(range, offset) {
      return run(undefined, range, offset + 1, false)[offset]?.key;
    },
    keyOf: (row) => row.key,
  };
}

const plan: FullTextPlan = {
  kind: 'walk',
  probe: { where: sql<SqlBool>`probe`, collect: false },
  sweep: () => Promise.resolve({ where: sql<SqlBool>`sweep`, collect: true }),
  minShare: 1, // the smallest window: WALK_WINDOW rows
};

test('searchRows: the walk and its sweep return exactly the first matches beyond any key', async () => {
  // Dense matches, a stretch longer than the window with none, sparse ones, dead rows among them.
  const rows: Row[] = [];
  for (let i = 0; i < 4 * WALK_WINDOW; i++) {
    const zone = Math.floor(i / WALK_WINDOW);
    const hit = zone === 0 ? i % 3 !== 0 : zone === 1 ? false : zone === 2 ? i % 29 === 0 : i % 2 === 0;
    rows.push({ key: [`k${String(i).padStart(5, '0')}`, i % 7], hit, live: i % 11 !== 5 });
  }
  const scan = fakeScan(rows);
  const keys = [undefined, ...rows.filter((_, i) => i % 13 === 0 || i % WALK_WINDOW === 0).map((r) => r.key)];
  for (const direction of ['after', 'before'] as const)
    for (const from of keys)
      for (const inclusive of [false, true])
        for (const limit of [1, 21, 101]) {
          const range: KeyRange = { direction, from, inclusive };
          const expected = await scan.rows({ where: sql<SqlBool>`filter`, collect: false }, range, limit);
          const got: Row[] = await searchRows<Row>(
            plan,
            scan.keyAt.bind(scan),
            scan.rows.bind(scan),
            range,
            limit,
          );
          assert.deepEqual(got, expected, `${direction} ${String(from)} ${inclusive} ${limit}`);
        }
});
