// 0007-list-ranks (and 0008 for persons) on a populated SQLite database: rows written before it (including ones written
// at the old schema, as the old code wrote them) get ranks in list order and enter the ranked
// index, searches through it equal the plain filter + sort, and the migration can be undone.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { test } from 'node:test';
import { fullTextMatch, fullyRanked, migrateToLatest, planFullText } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import { createStores } from '../stores.ts';
import { catalogueTestTargets } from '../../../test/kit/catalogue/targets.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

const SEARCH = {
  idColumn: 'works.id',
  ftsTable: 'works_fts',
  vectorColumn: 'works.search_vector',
  rankedFtsTable: 'works_ranked_fts',
};

test('0007-list-ranks ranks the works already there and feeds the ranked index', async () => {
  const sqlite = catalogueTestTargets(undefined).find((t) => t.dialect === 'sqlite')!;
  const database = await sqlite.open();
  try {
    const db = database.db;
    await generateWorks(db, 300);
    const undone = await migrateDownThrough(database, catalogueMigrations, '0007-list-ranks');
    assert.equal(undone.at(-1), '0007-list-ranks');
    const columns = await sql<{ name: string }>`select name from pragma_table_info('works')`.execute(db);
    assert.ok(!columns.rows.some((c) => c.name === 'list_rank'), 'down drops the column');
    // Writes at the old schema, as the code before 0005 made them.
    await sql`update works set titel = 'Aaa umbenannt', sort_key = 'aaa umbenannt',
      search_text = 'aaa umbenannt' where id % 7 = 0`.execute(db);
    await sql`update works set deleted_at = '2026-01-01T00:00:00.000Z' where id % 11 = 0`.execute(db);

    assert.deepEqual(await migrateToLatest(database, catalogueMigrations), undone.reverse());
    assert.ok(await fullyRanked(db, 'works'));
    assert.ok(await fullyRanked(db, 'persons'), '0008 ranks the persons');
    const { rows } = await sql<{
      list_rank: number;
    }>`select list_rank from works order by sort_key, id`.execute(db);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i]!.list_rank > rows[i - 1]!.list_rank);

    const stores = createStores(db, { capabilities: database.capabilities });
    for (const q of ['der', 'umbenannt', 'kl', 'müller', 'garten 2', 'zzzz']) {
      const plan = await planFullText(db, database.capabilities, SEARCH, q);
      assert.ok(plan?.kind === 'filter' && plan.filter.ranked, `q=${q} reads the ranked index`);
      const expected = await db
        .selectFrom('works')
        .select('id')
        .where('deleted_at', 'is', null)
        .where(fullTextMatch(database.capabilities, SEARCH, q)!)
        .orderBy('sort_key')
        .orderBy('id')
        .execute();
      const found: number[] = [];
      let after: string | undefined;
      do {
        const page = await stores.works.list({ q, limit: 9, after });
        found.push(...page.items.map((w) => w.id));
        after = page.next;
      } while (after !== undefined);
      assert.deepEqual(
        found,
        expected.map((r) => r.id),
        `q=${q}`,
      );
    }
  } finally {
    await database.dispose();
  }
});
