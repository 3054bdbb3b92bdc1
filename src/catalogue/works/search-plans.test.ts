// Search pages are the same whichever plan is picked (fulltext-plan.ts planFullText): the walk in
// list order (common words), its sweep fallback, and collect-and-sort (rare words) must give the
// rows and cursors that a plain filter + sort gives, on both engines.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fullTextMatch, planFullText, WALK_WINDOW } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';

const SEARCH = { idColumn: 'works.id', ftsTable: 'works_fts', vectorColumn: 'works.search_vector' };

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`work search plans on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      // ≈ 57 % "Der …" titles sorting first, then ≈ 43 % "Die …": q=die must get past more than
      // WALK_WINDOW non-matching rows (the sweep), q=der walks.
      await generateWorks(database.db, 3 * WALK_WINDOW);
      const ids = await database.db.selectFrom('works').select('id').orderBy('id').execute();
      for (const { id } of ids.filter((_, i) => i % 17 === 3)) assert.ok(await stores.works.delete(id));
    });
    after(() => database?.dispose());

    /** Every matching live work id in list order, by the plain filter plan. */
    async function reference(q: string): Promise<number[]> {
      const rows = await database.db
        .selectFrom('works')
        .select('id')
        .where('deleted_at', 'is', null)
        .where(fullTextMatch(database.capabilities, SEARCH, q)!)
        .orderBy('sort_key')
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    }

    test('the plan: SQLite walks for common words, PostgreSQL always walks first', async () => {
      const kind = async (q: string) =>
        (await planFullText(database.db, database.capabilities, SEARCH, q))?.kind;
      const sqlite = target.dialect === 'sqlite';
      assert.equal(await kind('der'), 'walk');
      assert.equal(await kind('die'), 'walk');
      assert.equal(await kind('d'), 'walk'); // a 1-letter prefix index since 0002-search-indexes
      // 64 of 768 titles: fewer than commonThreshold(768) = 116 matches, so SQLite collects.
      assert.equal(await kind('kleine'), sqlite ? 'filter' : 'walk');
      assert.equal(await kind('zz'), sqlite ? 'filter' : 'walk');
      assert.equal(await planFullText(database.db, database.capabilities, SEARCH, '!!'), null);
    });

    for (const q of ['der', 'die', 'de', 'der kleine', 'kleine', 'max', 'gr', 'zz']) {
      test(`q=${q}: every page forward and back equals the reference`, async () => {
        const expected = await reference(q);
        for (const limit of [1, 7, 40]) {
          const seen: number[] = [];
          const cursors: (string | undefined)[] = [];
          let after: string | undefined;
          let pages = 0;
          do {
            const page = await stores.works.list({ q, limit, after });
            const ids = page.items.map((w) => w.id);
            assert.deepEqual(
              ids,
              expected.slice(seen.length, seen.length + limit),
              `page ${pages} limit ${limit}`,
            );
            assert.equal(page.prev !== undefined, seen.length > 0);
            assert.equal(page.next !== undefined, seen.length + ids.length < expected.length);
            cursors.push(page.prev);
            seen.push(...ids);
            after = page.next;
            pages += 1;
          } while (after !== undefined && pages < 40);
          // Back from the pages reached: `before` each page's prev gives the page before it.
          for (let i = cursors.length - 1; i > 0; i--) {
            const page = await stores.works.list({ q, limit, before: cursors[i] });
            assert.deepEqual(
              page.items.map((w) => w.id),
              expected.slice((i - 1) * limit, i * limit),
              `back to page ${i - 1} limit ${limit}`,
            );
          }
        }
      });
    }
  });
}
