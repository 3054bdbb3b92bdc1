// A search's first page is the first rows of the matches its count and facets read, which come
// in list order from the ranked index (SQLite) or the term index (PostgreSQL): no second read of
// the index finds the page's rows; they are read by id (ADR 0113, on PostgreSQL since ADR 0122).
// A page with a cursor reads its rows from the index. On PostgreSQL the search's keys and its
// first matches are read on the connections that keep generic plans, a page's rows are not (ADR
// 0115). The statements are seen where each engine's driver sends them (node:sqlite's
// statements, pg's client).
import assert from 'node:assert/strict';
import { StatementSync } from 'node:sqlite';
import pg from 'pg';
import { after, before, describe, test } from 'node:test';
import { generateWorks } from '../demo/index.ts';
import { GENERIC_PLAN_SETTING } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';

/** The text of every statement either engine's driver runs while `spying` is set. */
const seen: string[] = [];
let spying = false;
for (const method of ['all', 'get', 'run', 'iterate'] as const) {
  const original = StatementSync.prototype[method] as (...args: unknown[]) => unknown;
  Object.defineProperty(StatementSync.prototype, method, {
    value: function (this: StatementSync, ...args: unknown[]) {
      if (spying) seen.push(this.sourceSQL);
      return original.apply(this, args);
    },
  });
}
/** The connections set to keep generic plans (ADR 0115), and what ran on them while spying. */
const genericClients = new WeakSet<pg.Client>();
const seenGeneric: string[] = [];
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string } | undefined;
  const text = typeof first === 'string' ? first : (first?.text ?? '');
  if (text === GENERIC_PLAN_SETTING) genericClients.add(this);
  if (spying) (genericClients.has(this) ? seenGeneric : seen).push(text);
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

/** The statements of one call. */
async function statementsOf(call: () => Promise<unknown>): Promise<string[]> {
  seen.length = 0;
  seenGeneric.length = 0;
  spying = true;
  try {
    await call();
  } finally {
    spying = false;
  }
  return [...seen];
}

/** A statement that reads page rows (their slugs) from the search index in list order. */
const pageFromIndex = (statement: string) =>
  statement.includes('"works"."slug"') &&
  (statement.includes('works_ranked_fts') || statement.includes('works_terms'));

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`a search's first page on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      await generateWorks(database.db, 300);
    });
    after(() => database?.dispose());

    test('its rows are the first matches, read by id; a later page reads the index', async () => {
      for (const q of ['der', 'der kleine', 'garten']) {
        let page: Awaited<ReturnType<CatalogueStores['works']['list']>> | undefined;
        const first = await statementsOf(async () => {
          page = await stores.works.list({ q, limit: 7 });
        });
        assert.ok(page && page.items.length > 0 && page.next, `q=${q}: a page with more after it`);
        assert.equal(first.filter(pageFromIndex).length, 0, `q=${q}: page 1 reads no rows from the index`);
        assert.ok(
          first.some((s) => s.includes('"works"."slug"')),
          `q=${q}: page 1 reads its rows (${first.length} statements)`,
        );
        const next = await statementsOf(() => stores.works.list({ q, limit: 7, after: page!.next }));
        assert.ok(next.some(pageFromIndex), `q=${q}: page 2 reads its rows from the index`);
      }
    });

    test(
      'the term index is read with generic plans, the rows with custom ones',
      { skip: target.dialect !== 'postgres' && 'generic plans are PostgreSQL only' },
      async () => {
        for (const q of ['der', 'der kleine', 'garten']) {
          const firstPage = await stores.works.list({ q, limit: 7 });
          const plain = await statementsOf(() => stores.works.list({ q, limit: 7, after: firstPage.next }));
          // The words' keys, and the first matches the count and facets read: each planned once
          // per connection (their plans are fixed by their shape, ADR 0115).
          assert.ok(
            seenGeneric.some((s) => s.includes('l.lexemes')),
            `q=${q}: the keys, generically`,
          );
          assert.ok(
            seenGeneric.some((s) => s.startsWith('select found.id from')),
            `q=${q}: the sample`,
          );
          assert.ok(!plain.some((s) => s.includes('l.lexemes') || s.startsWith('select found.id from')));
          // A page joins the rows, whose best plan depends on its limit and filters.
          assert.ok(
            plain.some(pageFromIndex) && !seenGeneric.some(pageFromIndex),
            `q=${q}: the page, custom`,
          );
        }
      },
    );
  });
}
