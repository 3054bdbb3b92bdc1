// A search's first page is the first rows of the matches its count and facets read, which come
// in list order from the ranked index (SQLite) or the term index (PostgreSQL): no second read of
// the index finds the page's rows; they are read by id (ADR 0113, on PostgreSQL since ADR 0122).
// So does a page forwards from within them (ADR 0123); a page backwards, or from a cursor whose
// work has moved since, reads its rows from the index. On PostgreSQL the search's keys, its
// first matches and a later page's probe are read on the connections that keep generic plans, a
// page's rows are not (ADR 0115, 0126). The statements are seen where each engine's driver sends them (node:sqlite's
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

    test('pages forwards within the first matches are their rows, read by id; pages backwards read the index', async () => {
      for (const q of ['der', 'der kleine', 'garten']) {
        const forward: { ids: number[]; prev?: string | undefined }[] = [];
        let after: string | undefined;
        do {
          let page: Awaited<ReturnType<CatalogueStores['works']['list']>> | undefined;
          const statements = await statementsOf(async () => {
            page = await stores.works.list({ q, limit: 7, after });
          });
          const n = forward.length + 1;
          assert.ok(page && page.items.length > 0, `q=${q}: page ${n} has rows`);
          assert.equal(
            statements.filter(pageFromIndex).length,
            0,
            `q=${q}: page ${n} reads no rows from the index`,
          );
          assert.ok(
            statements.some((s) => s.includes('"works"."slug"')),
            `q=${q}: page ${n} reads its rows (${statements.length} statements)`,
          );
          forward.push({ ids: page.items.map((w) => w.id), prev: page.prev });
          after = page.next;
        } while (after);
        assert.ok(forward.length > 2, `q=${q}: ${forward.length} pages`);
        // Backwards, from the index: the same pages.
        for (let i = forward.length - 1; i > 0; i--) {
          let back: Awaited<ReturnType<CatalogueStores['works']['list']>> | undefined;
          const statements = await statementsOf(async () => {
            back = await stores.works.list({ q, limit: 7, before: forward[i]!.prev });
          });
          assert.ok(statements.some(pageFromIndex), `q=${q}: page ${i} backwards reads the index`);
          assert.deepEqual(
            back!.items.map((w) => w.id),
            forward[i - 1]!.ids,
            `q=${q}: page ${i} backwards`,
          );
        }
      }
    });

    test('a cursor whose work has moved since is paged from the index, after its key', async () => {
      const q = 'garten';
      const first = await stores.works.list({ q, limit: 7 });
      const moved = first.items.at(-1)!;
      const before = await stores.works.list({ q, limit: 7, after: first.next });
      // Still a match, now sorted last: the cursor's key is where it was.
      assert.ok(await stores.works.replace(moved.id, { titel: `Zz ${moved.titel}`, exemplare: 1 }));
      let page: Awaited<ReturnType<CatalogueStores['works']['list']>> | undefined;
      const statements = await statementsOf(async () => {
        page = await stores.works.list({ q, limit: 7, after: first.next });
      });
      assert.ok(statements.some(pageFromIndex), 'read from the index');
      assert.deepEqual(
        page!.items.map((w) => w.id),
        before.items.map((w) => w.id),
        'the rows after the key, as before the move',
      );
    });

    test(
      'the term index is read with generic plans, the rows with custom ones',
      { skip: target.dialect !== 'postgres' && 'generic plans are PostgreSQL only' },
      async () => {
        for (const q of ['der', 'der kleine', 'garten']) {
          const first = await stores.works.list({ q, limit: 7 });
          let second: Awaited<ReturnType<CatalogueStores['works']['list']>> | undefined;
          const forward = await statementsOf(async () => {
            second = await stores.works.list({ q, limit: 7, after: first.next });
          });
          // Whether rows lie before page 2's cursor: a probe of the term index alone, kept
          // prepared with its generic plan like the sample (ADR 0126), not joined to the rows:
          // the sample and the probe are two such reads.
          assert.ok(
            seenGeneric.filter((s) => s.startsWith('select found.id from')).length >= 2,
            `q=${q}: the probe before page 2, generically`,
          );
          assert.ok(
            !forward.some((s) => s.includes('works_terms')),
            `q=${q}: page 2 reads the index only so`,
          );
          assert.ok(second?.prev, `q=${q}: page 2 links back`);
          // Backwards: read from the index.
          const plain = await statementsOf(() => stores.works.list({ q, limit: 7, before: second!.prev }));
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
