// The term index plan (PostgreSQL, migration 0014, storage/term-index.ts) against the plan it
// replaces: for a few thousand random queries (words, prefixes of 1–6 letters, other spellings,
// several words, words no work has; a quarter of them within one or two decades, which the index
// holds as keys too, ADR 0113), the first page, a page after and a page before a random row, and
// the count equal what the plain tsquery filter ordered by (sort_key, id) gives.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeCursor, fullTextMatch, planFullText } from '../../storage/index.ts';
import { sql } from 'kysely';
import { generateWorks } from '../demo/index.ts';
import { FACET_SAMPLE } from './facets.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';

const SEARCH = { idColumn: 'works.id', ftsTable: 'works_fts', vectorColumn: 'works.search_vector' };
const QUERIES = 1000;
/** A work's decade, as the facet reads it (works/facets.ts). */
const DECADE = sql<number>`jahr - ((jahr % 10) + 10) % 10`;
const LIMIT = 20;

/** A small deterministic generator (mulberry32), so a failure can be repeated. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  const skip = target.skip || (target.dialect !== 'postgres' && 'the term index is PostgreSQL only');
  describe(`term index search against the filter plan on ${target.dialect}`, { skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let words: string[] = [];
    let decades: number[] = [];

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      await generateWorks(database.db, 1500);
      const ids = await database.db.selectFrom('works').select('id').orderBy('id').execute();
      for (const { id } of ids.filter((_, i) => i % 13 === 5)) assert.ok(await stores.works.delete(id));
      const titles = await database.db.selectFrom('works').select('search_text').execute();
      words = [...new Set(titles.flatMap((t) => t.search_text.split(/\s+/)))].filter((w) => w !== '');
      const { rows } = await sql<{ decade: number }>`select distinct ${DECADE} as decade from works
        where jahr is not null order by 1`.execute(database.db);
      decades = rows.map((r) => Number(r.decade));
    });
    after(() => database?.dispose());

    async function reference(q: string, dekade?: number[]) {
      const match = fullTextMatch(database.capabilities, SEARCH, q);
      if (!match) return [];
      let query = database.db
        .selectFrom('works')
        .select(['id', 'sort_key'])
        .where('deleted_at', 'is', null)
        .where(match);
      if (dekade) query = query.where(DECADE, 'in', dekade);
      return query.orderBy('sort_key').orderBy('id').execute();
    }

    test(
      `${QUERIES} random queries: pages and counts equal the plain filter's`,
      { timeout: 900_000 },
      async () => {
        const next = random(65);
        const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
        const term = () => {
          const word = pick(words);
          const kind = next();
          if (kind < 0.3) return word;
          if (kind < 0.85) return word.slice(0, 1 + Math.floor(next() * 6)); // a prefix
          if (kind < 0.95) return word.toUpperCase();
          return 'zq' + word; // nothing starts with it
        };
        let termPlans = 0;
        for (let i = 0; i < QUERIES; i++) {
          const n = next() < 0.6 ? 1 : next() < 0.7 ? 2 : 3;
          const q = Array.from({ length: n }, term).join(' ');
          const dekade =
            next() < 0.25 ? [...new Set([pick(decades), pick(decades)])].sort((a, b) => a - b) : undefined;
          const facets = dekade && { dekade };
          const asked = `q=${q}${dekade ? ` dekade=${dekade.join(',')}` : ''}`;
          const plan = await planFullText(
            database.db,
            database.capabilities,
            { ...SEARCH, termIndex: true },
            q,
          );
          if (plan?.kind === 'filter' && plan.filter.terms) termPlans += 1;
          const expected = await reference(q, dekade);
          const ids = expected.map((r) => r.id);
          const first = await stores.works.list({ q, limit: LIMIT, facets });
          assert.deepEqual(
            first.items.map((w) => w.id),
            ids.slice(0, LIMIT),
            `${asked}: first page`,
          );
          // A filtered list counts to FACET_SAMPLE (works/store.ts).
          const cap = dekade ? FACET_SAMPLE : 500;
          const total = ids.length > cap ? { count: cap, exact: false } : { count: ids.length, exact: true };
          assert.deepEqual(first.total, total, `${asked}: count`);
          if (expected.length === 0) continue;
          const at = Math.floor(next() * expected.length);
          const cursor = encodeCursor([expected[at]!.sort_key, expected[at]!.id]);
          const after = await stores.works.list({ q, limit: LIMIT, after: cursor, facets });
          assert.deepEqual(
            after.items.map((w) => w.id),
            ids.slice(at + 1, at + 1 + LIMIT),
            `${asked}: after row ${at}`,
          );
          // An empty page has no links (nothing to take a cursor from).
          const more = at + 1 < ids.length;
          assert.equal(after.prev !== undefined, more, `${asked}: after row ${at}: prev`);
          assert.equal(
            after.next !== undefined,
            at + 1 + LIMIT < ids.length,
            `${asked}: after row ${at}: next`,
          );
          const back = await stores.works.list({ q, limit: LIMIT, before: cursor, facets });
          assert.deepEqual(
            back.items.map((w) => w.id),
            ids.slice(Math.max(0, at - LIMIT), at),
            `${asked}: before row ${at}`,
          );
        }
        // Most queries must take the new plan, or this compares the old plan with itself.
        assert.ok(termPlans > QUERIES * 0.9, `${termPlans} of ${QUERIES} queries read the term index`);
      },
    );

    // The count of several words tests a batch of the first word's entries against the other
    // words' entries within the batch's stretch of the list, or, when a word has more than
    // WINDOW_CAP entries there, entry by entry. Both must count what the filter finds.
    test('counts of several words: dense runs of matches and stretches another word fills', async () => {
      const titles = [
        ...Array.from({ length: 520 }, (_, i) => `Dicht Kiwi ${i}`), // every entry a match
        ...Array.from({ length: 700 }, (_, i) => `Omega ${i}`), // 700 entries between two matches
        'Aaa Quokka Omega',
        'Omega Quokka Mitte',
        'Zzz Quokka Omega',
        'Quokka allein',
      ];
      for (const titel of titles) await stores.works.create({ titel });
      for (const q of [
        'dicht kiwi',
        'kiwi dicht',
        'quokka omega',
        'omega quokka',
        'quokka om',
        'dicht omega',
      ]) {
        const ids = (await reference(q)).map((r) => r.id);
        const first = await stores.works.list({ q, limit: LIMIT });
        const total = ids.length > 500 ? { count: 500, exact: false } : { count: ids.length, exact: true };
        assert.deepEqual(first.total, total, `q=${q}: count`);
        assert.deepEqual(
          first.items.map((w) => w.id),
          ids.slice(0, LIMIT),
          `q=${q}: first page`,
        );
        // A page longer than leapfrog pages (LEAPFROG_LIMIT) is read in windowed batches
        // forwards, in batches probing each entry backwards.
        const long = await stores.works.list({ q, limit: 100 });
        assert.deepEqual(
          long.items.map((w) => w.id),
          ids.slice(0, 100),
          `q=${q}: a page of 100`,
        );
        const rows = await reference(q);
        // Forwards after a row: the windowed steps start at the row after it (ADR 0114).
        const at = Math.min(rows.length - 2, 37);
        if (at >= 0) {
          const from = rows[at]!;
          const next = await stores.works.list({
            q,
            limit: 100,
            after: encodeCursor([from.sort_key, from.id]),
          });
          assert.deepEqual(
            next.items.map((w) => w.id),
            ids.slice(at + 1, at + 101),
            `q=${q}: a page of 100 after a row`,
          );
        }
        const end = Math.min(rows.length - 1, 150);
        if (end > 0) {
          const last = rows[end]!;
          const back = await stores.works.list({
            q,
            limit: 100,
            before: encodeCursor([last.sort_key, last.id]),
          });
          assert.deepEqual(
            back.items.map((w) => w.id),
            ids.slice(Math.max(0, end - 100), end),
            `q=${q}: a page of 100 backwards`,
          );
        }
      }
    });
  });
}
