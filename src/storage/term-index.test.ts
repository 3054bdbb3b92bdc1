// The term scan's statement (ADR 0114): a long scan forwards writes its windowed step once, so
// PostgreSQL plans one copy of it, whatever the bound it starts from. The rows it finds are
// checked against the plain filter in catalogue/works/term-search.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { LEAPFROG_LIMIT, termScan, type TermQuery } from './term-index.ts';

const db = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const query: TermQuery = { table: 'works', groups: [['gart', 'garten'], ['klein', 'kleine'], ['der']] };

/** How often each key of the first group is bound in the scan's statement. */
function firstGroupBindings(range: Parameters<typeof termScan>[1], limit: number): number[] {
  const { parameters } = sql`select * from ${termScan(query, range, limit)} as found`.compile(db);
  return query.groups[0]!.map((key) => parameters.filter((p) => p === key).length);
}

test('a long scan forwards reads the first group in one step of its statement', () => {
  const limit = LEAPFROG_LIMIT * 8;
  assert.deepEqual(firstGroupBindings({ direction: 'after', inclusive: false }, limit), [1, 1]);
  const from = ['der kleine garten', 42] as const;
  assert.deepEqual(firstGroupBindings({ direction: 'after', from, inclusive: false }, limit), [1, 1]);
});

test('a long scan forwards after a row starts at the next id, at a row at that row', () => {
  const bound = (inclusive: boolean) => {
    const range = { direction: 'after' as const, from: ['der kleine garten', 42] as const, inclusive };
    const { parameters } = sql`select * from ${termScan(query, range, 500)} as found`.compile(db);
    return parameters.slice(0, 2);
  };
  assert.deepEqual(bound(false), ['der kleine garten', 43]);
  assert.deepEqual(bound(true), ['der kleine garten', 42]);
});
