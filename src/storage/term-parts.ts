// Pieces of the term index's scans (term-index.ts, term-batches.ts; ADR 0065): the SQL that
// depends on the direction, a group's nearest entry past a bound, a group's first entries, and
// the condition a scoped list adds to the first group's entries.
import { sql, type RawBuilder } from 'kysely';

/** Direction-dependent SQL pieces. */
export function sides(direction: 'after' | 'before') {
  const after = direction === 'after';
  return {
    ge: sql.raw(after ? '>=' : '<='),
    gt: sql.raw(after ? '>' : '<'),
    order: sql.raw(after ? 'asc' : 'desc'),
    // The furthest of the groups' answers; a group with none (null) sorts first and ends the scan.
    furthest: sql.raw(after ? 'desc nulls first' : 'asc nulls first'),
    furthestId: sql.raw(after ? 'desc' : 'asc'),
    reverse: sql.raw(after ? 'desc' : 'asc'),
    step: after ? 1 : -1,
  };
}

export type Sides = ReturnType<typeof sides>;

/**
 * The first row of one group's keys at or beyond (`sortKey`, `id`) in direction order: one
 * seek per key, the nearest wins. `sortKey`/`id` are SQL expressions of the outer query.
 */
export function nearest(
  terms: RawBuilder<unknown>,
  keys: readonly string[],
  bound: RawBuilder<unknown>,
  s: Sides,
  kept: Kept = (b) => b,
) {
  const one = (key: string) => sql`(select sort_key, id from ${terms} where term = ${key}
    and ${kept(sql`(sort_key, id) ${s.ge} ${bound}`)} order by sort_key ${s.order}, id ${s.order} limit 1)`;
  if (keys.length === 1) return one(keys[0]!);
  return sql`(select sort_key, id from (${sql.join(keys.map(one), sql` union all `)}) as k
    order by sort_key ${s.order}, id ${s.order} limit 1)`;
}

/** Up to `n` rows of one group's keys within `condition`, in direction order, each once. */
export function firstRows(
  terms: RawBuilder<unknown>,
  keys: readonly string[],
  condition: RawBuilder<unknown>,
  n: number,
  s: Sides,
) {
  const one = (key: string) => sql`(select sort_key, id from ${terms} where term = ${key} and ${condition}
    order by sort_key ${s.order}, id ${s.order} limit ${n})`;
  if (keys.length === 1) return one(keys[0]!);
  return sql`(select distinct sort_key, id from (${sql.join(keys.map(one), sql` union all `)}) as k
    order by sort_key ${s.order}, id ${s.order} limit ${n})`;
}

/** A condition on the first group's index entries, with TermQuery's `keep` added when given. */
export type Kept = (condition: RawBuilder<unknown>) => RawBuilder<unknown>;

/** Candidates come from the first group: `keep` tested there, every match found is a row kept. */
export function keptBy(
  query: { readonly keep?: ((id: RawBuilder<unknown>) => RawBuilder<unknown>) | undefined },
  terms: RawBuilder<unknown>,
): Kept {
  return (condition) => (query.keep ? sql`${condition} and ${query.keep(sql`${terms}.id`)}` : condition);
}

/** A scan of several words: `limit` matches of every group from `start`. */
export type Scan = (
  terms: RawBuilder<unknown>,
  first: readonly string[],
  others: readonly (readonly string[])[],
  start: RawBuilder<unknown>,
  limit: number,
  s: Sides,
  kept: Kept,
) => RawBuilder<unknown>;
