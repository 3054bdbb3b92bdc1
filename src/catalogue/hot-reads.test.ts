// The reads on every request's path are named statements on PostgreSQL (ADR 0068): parsed and
// planned once per connection, then only bound and executed. A hot read written as an ordinary
// Kysely query (planned by PostgreSQL on every run) fails here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { catalogueTestTargets, type TestDatabase } from '../../test/kit/catalogue/targets.ts';
import { createDatabaseLoginLimiter, createLoginReader } from './accounts/index.ts';
import { changeCount, changeFeed } from './changes.ts';
import { createStores, type CatalogueStores } from './stores.ts';
import type { DB } from './tables.ts';
import { personsOfWorks } from './works/index.ts';
import { termGroups, withGenericPlan } from '../storage/index.ts';

const postgres = catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL).find(
  (target) => target.dialect === 'postgres',
)!;

const PREPARED = `select statement, (generic_plans + custom_plans)::int as runs
  from pg_prepared_statements where name like 'shelfmark\\_%'`;

/**
 * The named statements the pooled connection, the connection of generic plans (ADR 0115) and
 * the database's own one (the change feed's, ADR 0105) hold: statement text → executions.
 */
async function preparedHere(database: TestDatabase<DB>): Promise<Map<string, number>> {
  const { rows } = await sql<{ statement: string; runs: number }>`${sql.raw(PREPARED)}`.execute(database.db);
  // Asked there by a statement of its own kind, which is left out.
  const generic = await database.db.executeQuery<{ statement: string; runs: number }>(
    withGenericPlan(CompiledQuery.raw(PREPARED)),
  );
  const own = (await database.own?.query('hot_reads_prepared', PREPARED, [])) ?? [];
  return new Map([
    ...[...rows, ...generic.rows.filter((row) => row.statement !== PREPARED)].map(
      (row) => [row.statement, row.runs] as const,
    ),
    ...own.map(([statement, runs]) => [statement as string, runs as number] as const),
  ]);
}

describe('hot reads are named statements on PostgreSQL', { skip: postgres.skip }, () => {
  let database: TestDatabase<DB>;
  let stores: CatalogueStores;

  before(async () => {
    database = await postgres.open();
    stores = createStores(database.db, { capabilities: database.capabilities });
    const goethe = await stores.persons.create({ slug: 'goethe', vorname: 'J. W.', nachname: 'von Goethe' });
    await stores.works.create({ slug: 'faust', titel: 'Faust', exemplare: 1, personIds: [goethe.id] });
    await stores.accounts.add({ personId: goethe.id, username: 'goethe', passwordHash: 'x' });
  });
  after(() => database?.dispose());

  test('each is prepared once and executed on every call', async () => {
    // One query at a time: the pool hands back the same idle connection every time.
    const limiter = createDatabaseLoginLimiter(database.db);
    const reader = createLoginReader(database.db);
    const [names, addresses] = [5, 50].map((maxFailures) =>
      createDatabaseLoginLimiter(database.db, { maxFailures, reader }),
    );
    const goethe = await stores.persons.bySlug('goethe');
    assert.ok(goethe && 'found' in goethe);
    const faust = await stores.works.bySlug('faust');
    assert.ok(faust && 'found' in faust);
    const reads: Record<string, () => unknown> = {
      'change counter': () => changeCount(database.db),
      'change feed (the cache)': () => changeFeed(database)(),
      'person by slug': () => stores.persons.bySlug('goethe'),
      'person by id': () => stores.persons.byId(goethe.found.id),
      // One after the other: two at once would take a second pooled connection.
      'a person a write names, by slug and by id': async () => {
        await stores.persons.idOf({ slug: 'goethe' });
        await stores.persons.idOf({ id: goethe.found.id });
      },
      'work by slug (and its copies)': () => stores.works.bySlug('faust'),
      'life dates by slug': () => stores.lifeDates.bySlug('goethe'),
      'account by id (a session)': () => stores.accounts.findById(goethe.found.id),
      'account by user name (Basic)': () => stores.accounts.findByUsername('goethe'),
      'log-in failures (Basic, log-in)': () => limiter.check('goethe'),
      'log-in failures of a name and an address together': () =>
        Promise.all([names!.check('goethe\u0000192.0.2.1'), addresses!.check('192.0.2.1')]),
      'a Basic request’s counts and account together': () =>
        Promise.all([
          names!.check('goethe\u0000192.0.2.1'),
          addresses!.check('192.0.2.1'),
          reader.account('goethe'),
        ]),
      'the persons of a page of works (every list)': () => personsOfWorks(database.db, [faust.found.id]),
      'a search word’s index keys (every search)': () => termGroups(database.db, 'works', ['faust']),
    };
    const seen = new Map<string, number>();
    for (const [read, run] of Object.entries(reads)) {
      const before = await preparedHere(database);
      await run();
      await run();
      const added = [...(await preparedHere(database))].filter(
        ([statement, runs]) => runs > (before.get(statement) ?? 0),
      );
      assert.ok(added.length > 0, `${read}: no named statement ran`);
      // A work and its copies come from one statement, one snapshot (works/read.ts).
      if (read.startsWith('work by slug'))
        assert.equal(added.length, 1, `${read}: ${added.length} statements`);
      for (const [statement, runs] of added) seen.set(statement, runs);
    }
    // The counter, person ×2, a named person's id ×2, work (with its copies), life dates,
    // account ×2, log-in failures alone, in pairs and with the account, a page's persons, a
    // search's keys.
    assert.ok(seen.size >= 14, `${seen.size} named statements`);
    // Never parsed again: a statement known before a read ran exactly twice more.
    const before = await preparedHere(database);
    await stores.persons.bySlug('goethe');
    await stores.persons.bySlug('goethe');
    const afterwards = await preparedHere(database);
    const moved = [...afterwards].filter(([statement, runs]) => runs !== before.get(statement));
    assert.equal(moved.length, 1);
    assert.equal(moved[0]![1], before.get(moved[0]![0])! + 2);
  });
});
