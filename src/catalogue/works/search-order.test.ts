// Search results are pinned: on a generated catalogue, every query class (rare word, common word,
// one letter, prefix, several words, no hits, other spellings) returns exactly the rows, in
// exactly the order, recorded in search-order.golden.json — on SQLite and on PostgreSQL, read
// page by page through the store (whatever plan it picks) and by the plain filter-and-sort
// query. Plans may change for speed; results may not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fullTextMatch } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import {
  allPages,
  GENERATED_WORKS,
  isDeletedIndex,
  PINNED_PERSON_QUERIES,
  PINNED_QUERIES,
  summarise,
  type PinnedResult,
} from './search-order.fixture.ts';

const golden = JSON.parse(readFileSync(new URL('search-order.golden.json', import.meta.url), 'utf8')) as {
  works: Record<string, PinnedResult>;
  persons: Record<string, PinnedResult>;
};

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`pinned search results on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      await generateWorks(database.db, GENERATED_WORKS);
      const ids = await database.db.selectFrom('works').select('id').orderBy('id').execute();
      assert.deepEqual(
        ids.map((r) => r.id),
        Array.from({ length: GENERATED_WORKS }, (_, i) => i + 1),
        'generated works get ids 1…N in generation order',
      );
      for (const { id } of ids.filter((_, i) => isDeletedIndex(i))) assert.ok(await stores.works.delete(id));
    });
    after(() => database?.dispose());

    for (const q of PINNED_QUERIES) {
      test(`works q=${q}: pages of 20 and of 100 give the pinned rows in the pinned order`, async () => {
        const pinned = golden.works[q];
        assert.ok(pinned, `no pinned result for ${q}`);
        assert.deepEqual(summarise(await allPages(stores.works, q, 20)), pinned);
        assert.deepEqual(summarise(await allPages(stores.works, q, 100)), pinned);
      });
    }

    test('works: the plain filter ordered by (sort_key, id) gives the pinned results', async () => {
      const search = { idColumn: 'works.id', ftsTable: 'works_fts', vectorColumn: 'works.search_vector' };
      for (const q of PINNED_QUERIES) {
        const rows = await database.db
          .selectFrom('works')
          .select('id')
          .where('deleted_at', 'is', null)
          .where(fullTextMatch(database.capabilities, search, q)!)
          .orderBy('sort_key')
          .orderBy('id')
          .execute();
        assert.deepEqual(summarise(rows.map((r) => r.id)), golden.works[q], q);
      }
    });

    for (const q of PINNED_PERSON_QUERIES) {
      test(`persons q=${q}: the pinned rows in the pinned order`, async () => {
        assert.deepEqual(summarise(await allPages(stores.persons, q, 20)), golden.persons[q]);
      });
    }
  });
}
