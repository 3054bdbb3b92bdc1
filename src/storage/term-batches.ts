// Several words in batches (ADR 0065): a page of more than LEAPFROG_LIMIT rows, and the capped
// count of a search (`gesamt`): the first group's next entries at a time, tested against the
// other groups, then every other group seeks past the batch.
import { sql, type RawBuilder } from 'kysely';
import { firstRows, nearest, sides, type Kept, type Scan, type Sides } from './term-parts.ts';

/**
 * Index entries of one key read within a batch's window, at most, before that batch is tested
 * by probes instead (a window that spans much of another word's entries).
 */
export const WINDOW_CAP = 256;

/**
 * The count of several words in batches with skips, as the page scan's batches, but each batch
 * tested as a window: the first group's next `batch` entries span a stretch of the list, and
 * every other group's entries within that stretch are read as one range per key (one seek,
 * then neighbouring entries) and intersected with the batch. Where a title's words are found
 * together — a run of matches, as `der kleine garten` — that reads a few ranges per batch where
 * a probe per entry and key cost a seek each (ADR 0065). A group with more than WINDOW_CAP
 * entries in the window is a sparse stretch: that batch probes each entry (rarest group first,
 * one AND, so a group that lacks the entry spares the probes after it).
 */
export function windowedCount(
  terms: RawBuilder<unknown>,
  first: readonly string[],
  others: readonly (readonly string[])[],
  limit: number,
  kept: Kept,
) {
  const stepFrom = windowedSteps(terms, first, others, limit, kept);
  // The steps are written once, from a bound before every entry: the statement costs half the
  // planning.
  return sql`with recursive lf(sk, id, hits) as (
      select ${boundRow(undefined)}, 0
      union all
      select j.sk, j.id, lf.hits + cardinality(h.hit_ids) from lf ${stepFrom(sql`(sort_key, id) >= (lf.sk, lf.id)`)}
      where lf.sk is not null and lf.hits < ${limit})
    select least(max(hits), ${limit})::integer from lf`;
}

/**
 * A long scan forwards (a search's first 501 matches, which its count and facets read, ADR
 * 0094) in the count's windowed batches, each batch's matches carried as arrays of keys: where
 * the words come together it reads a few ranges per batch, where `batches` probes every entry
 * of the first group once per other group (`der kleine garten`, 501 matches at 1,000,000 works:
 * about half the time, ADR 0112). As in the count, the steps are written once, from a first row
 * that holds the bound (`from`, inclusive; none: before every entry) and no matches: planning
 * the statement cost as much as running it (ADR 0114).
 */
export function windowedScan(
  terms: RawBuilder<unknown>,
  first: readonly string[],
  others: readonly (readonly string[])[],
  from: readonly [string, number] | undefined,
  limit: number,
  kept: Kept,
): RawBuilder<unknown> {
  const stepFrom = windowedSteps(terms, first, others, limit, kept);
  return sql`(with recursive lf(sk, id, hits, hit_sks, hit_ids) as (
      select ${boundRow(from)}, 0, '{}'::text[] collate "C", '{}'::integer[]
      union all
      select j.sk, j.id, lf.hits + cardinality(h.hit_ids), h.hit_sks, h.hit_ids
      from lf ${stepFrom(sql`(sort_key, id) >= (lf.sk, lf.id)`)}
      where lf.sk is not null and lf.hits < ${limit})
    select h.sort_key, h.id from lf cross join lateral unnest(lf.hit_sks, lf.hit_ids) as h(sort_key, id)
    order by h.sort_key collate "C" asc, h.id asc limit ${limit})`;
}

/**
 * The (sort_key, id) a windowed recursion starts from, inclusive: `from`, or one before every
 * entry ('' is the least text in "C"; ids are positive).
 */
function boundRow(from: readonly [string, number] | undefined) {
  const [sk, id] = from ?? ['', 0];
  return sql`${sk}::text collate "C", ${id}::integer`;
}

/**
 * One windowed batch forwards from `condition`, for the count and the scan alike: the first
 * group's next entries `w` (arrays `sks`, `ids` in list order; `b`: how many, the last), every
 * other group's entries within the batch's stretch read as one range per key (`r.a0`, …; at most
 * WINDOW_CAP + 1), the batch's matches `h` (`hit_sks`, `hit_ids`: in every window where each
 * window fits, else probed key by key), and the next bound `j` past a full batch.
 */
function windowedSteps(
  terms: RawBuilder<unknown>,
  first: readonly string[],
  others: readonly (readonly string[])[],
  limit: number,
  kept: Kept,
) {
  const s = sides('after');
  const batch = Math.min(64, Math.max(16, limit));
  const low = sql`(w.sks[1] collate "C", w.ids[1])`;
  const high = sql`(w.sks[cardinality(w.ids)] collate "C", w.ids[cardinality(w.ids)])`;
  // A row's id names its entry: (sort_key, id) follows from the id.
  const windows = others.map(
    (keys, i) => sql`array(select o.id from ${terms} as o where o.term = any(${keys}::text[])
      and (o.sort_key, o.id) >= ${low} and (o.sort_key, o.id) <= ${high}
      limit ${WINDOW_CAP + 1}) as ${sql.raw(`a${i}`)}`,
  );
  const fits = sql.join(
    others.map((_, i) => sql`cardinality(r.${sql.raw(`a${i}`)}) <= ${WINDOW_CAP}`),
    sql` and `,
  );
  const inWindow = sql.join(
    others.map((_, i) => sql`e.id = any(r.${sql.raw(`a${i}`)})`),
    sql` and `,
  );
  const probed = probes(terms, others, sql`e.sk`, sql`e.id`);
  return (condition: RawBuilder<unknown>) => sql`cross join lateral (
      select coalesce(array_agg(g.sort_key order by g.sort_key, g.id), '{}') as sks,
        coalesce(array_agg(g.id order by g.sort_key, g.id), '{}') as ids
      from ${firstRows(terms, first, kept(condition), batch, s)} as g) as w
    -- offset 0: each window is read once (else its expression is copied into every use).
    cross join lateral (select ${sql.join(windows)} offset 0) as r
    cross join lateral (select cardinality(w.ids) as n, w.sks[cardinality(w.ids)] as last_sk,
        w.ids[cardinality(w.ids)] as last_id) as b
    -- The windows' test when they fit, else the probes (CASE tests only the branch taken).
    cross join lateral (select coalesce(array_agg(e.sk order by e.i), '{}') as hit_sks,
        coalesce(array_agg(e.id order by e.i), '{}') as hit_ids
      from unnest(w.sks, w.ids) with ordinality as e(sk, id, i)
      where case when ${fits} then ${inWindow} else ${probed} end) as h
    ${skipPast(terms, others, batch, s)}`;
}

/**
 * Whether the row (`sk`, `id`) has an entry in every group of `others`: a scalar subquery with
 * limit 1 per group, not exists(): PostgreSQL may turn an exists() into a hashed set of every
 * row of the key (`q=der`: 570,000) where a probe per row is what is wanted. The probes are one
 * AND, so a row that one group lacks costs no probe of the groups after it (rarest first: the
 * likeliest to fail).
 */
function probes(
  terms: RawBuilder<unknown>,
  others: readonly (readonly string[])[],
  sk: RawBuilder<unknown>,
  id: RawBuilder<unknown>,
) {
  return sql.join(
    others.map(
      (keys) => sql`(select true from ${terms} as o
        where o.term = any(${keys}::text[]) and o.sort_key = ${sk} and o.id = ${id} limit 1) is not null`,
    ),
    sql` and `,
  );
}

/**
 * After a full batch (`b.n` = `batch`) ending at (`b.last_sk`, `b.last_id`): every other group
 * seeks to its first entry past it, and the furthest answer is the next bound `j` (no row
 * before it can be in all groups); a group with none ends the scan.
 */
function skipPast(
  terms: RawBuilder<unknown>,
  others: readonly (readonly string[])[],
  batch: number,
  s: Sides,
) {
  const past = sql`(b.last_sk, b.last_id + ${sql.raw(String(s.step))})`;
  const answers = others.map(
    (keys, i) =>
      sql`left join lateral ${nearest(terms, keys, past, s)} as ${sql.raw(`y${i}`)} on b.n = ${batch}`,
  );
  const values = sql.join(others.map((_, i) => sql.raw(`(y${i}.sort_key, y${i}.id)`)));
  return sql`${sql.join(answers, sql` `)}
    left join lateral (select v.sk, v.id from (values ${values}) as v(sk, id)
      order by v.sk ${s.furthest}, v.id ${s.furthestId} limit 1) as j on b.n = ${batch}`;
}

/**
 * A page of several words longer than leapfrog pages: the batches' matches, each batch's
 * carried as arrays of keys in list order.
 */
export const batches: Scan = (terms, first, others, start, limit, s, kept) => {
  // Batches with skips: the first group's next `batch` rows from a bound, each tested against
  // the other groups (one index probe per key); then every other group seeks past the batch and
  // the furthest answer is the next bound (no row before it can be in all groups). A run of
  // non-matches costs one step, a run of matches a step per `batch` rows; the recursion stops
  // once `limit` matches are found.
  const batch = Math.min(64, Math.max(16, limit));
  const hit = probes(terms, others, sql`g.sort_key`, sql`g.id`);
  const matches = sql`array_agg(e.sort_key order by e.sort_key ${s.order}, e.id ${s.order}) filter (where e.hit) as hit_sks,
    array_agg(e.id order by e.sort_key ${s.order}, e.id ${s.order}) filter (where e.hit) as hit_ids,`;
  const stepFrom = (condition: RawBuilder<unknown>) => sql`cross join lateral (
      select ${matches} count(*)::integer as n,
        (array_agg(e.sort_key order by e.sort_key ${s.reverse}, e.id ${s.reverse}))[1] as last_sk,
        (array_agg(e.id order by e.sort_key ${s.reverse}, e.id ${s.reverse}))[1] as last_id
      -- offset 0: each row's probes run once (both aggregates read \`hit\`).
      from (select g.sort_key, g.id, ${hit} as hit
        from ${firstRows(terms, first, kept(condition), batch, s)} as g offset 0) as e) as b
    ${skipPast(terms, others, batch, s)}`;
  const columns = (hits: RawBuilder<unknown>) =>
    sql`j.sk, j.id, ${hits} + coalesce(cardinality(b.hit_ids), 0), b.hit_sks, b.hit_ids`;
  const steps = sql`with recursive lf(sk, id, hits, hit_sks, hit_ids) as (
      select ${columns(sql`0`)} from (select) as nothing ${stepFrom(start)}
      union all
      select ${columns(sql`lf.hits`)} from lf ${stepFrom(sql`(sort_key, id) ${s.ge} (lf.sk, lf.id)`)}
      where lf.sk is not null and lf.hits < ${limit})`;
  return sql`(${steps}
    select h.sort_key, h.id from lf cross join lateral unnest(lf.hit_sks, lf.hit_ids) as h(sort_key, id)
    order by h.sort_key collate "C" ${s.order}, h.id ${s.order} limit ${limit})`;
};
