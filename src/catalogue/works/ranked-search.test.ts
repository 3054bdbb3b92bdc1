// The ranked search index (SQLite, migration 0007-list-ranks, storage/list-rank.ts) stays exact
// through writes: after inserts that use up the gaps between neighbours (respacing), renames that
// move a work in the list, renamed persons (new search text), soft and hard deletes, every search
// read page by page forwards and backwards equals the plain filter + sort over the table, the
// ranks follow (sort_key, id), and the planner still reads the ranked index. Both engines run the
// write sequence (PostgreSQL keeps no ranks; its results must match all the same).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { fullTextMatch, fullyRanked, planFullText, RANK_GAP } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import { decadeTerm } from './facets.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { STAFF } from '../../../test/kit/catalogue/write-support.ts';

const SEARCH = {
  idColumn: 'works.id',
  ftsTable: 'works_fts',
  vectorColumn: 'works.search_vector',
  rankedFtsTable: 'works_ranked_fts',
};
const PERSON_SEARCH = {
  idColumn: 'persons.id',
  ftsTable: 'persons_fts',
  vectorColumn: 'persons.search_vector',
  rankedFtsTable: 'persons_ranked_fts',
};
const PERSON_QUERIES = ['müller', 'a', 'neuname', 'zwischen', 'von', 'zzzz'];
const QUERIES = ['der', 'die kleine', 'kl', 'aaa', 'zwischen', 'garten 3', 'müller', 'neuname', 'd', 'zzzz'];

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`ranked work search after writes on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    const sqlite = target.dialect === 'sqlite';

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      await generateWorks(database.db, 400);
    });
    after(() => database?.dispose());

    /** The live works matching `q` (and of one of the decades `dekade`), in list order. */
    async function reference(q: string, dekade?: readonly number[]): Promise<number[]> {
      let query = database.db
        .selectFrom('works')
        .select('id')
        .where('deleted_at', 'is', null)
        .where(fullTextMatch(database.capabilities, SEARCH, q)!);
      if (dekade) query = query.where(sql<number>`jahr - ((jahr % 10) + 10) % 10`, 'in', dekade);
      const rows = await query.orderBy('sort_key').orderBy('id').execute();
      return rows.map((r) => r.id);
    }

    /** Every search, forwards and backwards in pages of 7, equals the reference. */
    async function assertExact(when: string): Promise<void> {
      if (sqlite) {
        assert.ok(await fullyRanked(database.db, 'works'), `${when}: every work has a rank`);
        const { rows } = await sql<{ id: number; list_rank: number }>`select id, list_rank from works
          order by sort_key, id`.execute(database.db);
        for (let i = 1; i < rows.length; i++)
          assert.ok(rows[i]!.list_rank > rows[i - 1]!.list_rank, `${when}: ranks follow the list order`);
        const plan = await planFullText(database.db, database.capabilities, SEARCH, 'der');
        assert.ok(plan?.kind === 'filter' && plan.filter.ranked, `${when}: the ranked index is used`);
        assert.ok(await fullyRanked(database.db, 'persons'), `${when}: every person has a rank`);
        const persons = await sql<{ list_rank: number }>`select list_rank from persons
          order by sort_key, id`.execute(database.db);
        for (let i = 1; i < persons.rows.length; i++)
          assert.ok(persons.rows[i]!.list_rank > persons.rows[i - 1]!.list_rank, `${when}: person ranks`);
        const personPlan = await planFullText(database.db, database.capabilities, PERSON_SEARCH, 'a');
        assert.ok(personPlan?.kind === 'filter' && personPlan.filter.ranked, `${when}: persons too`);
      } else {
        // The term index (migration 0014, ADR 0065) holds exactly the keys of every live row,
        // and a work's decade (migration 0034, ADR 0113).
        for (const table of ['works', 'persons']) {
          const terms = sql.table(`${table}_terms`);
          const decades = sql`union all select work_decade_term(jahr), sort_key, id from works
            where deleted_at is null and jahr is not null`;
          const source = sql`select * from (select k as term, sort_key, id from ${sql.table(table)},
            search_term_keys(search_vector) as k where deleted_at is null
            ${table === 'works' ? decades : sql``}) as keys`;
          const { rows } = await sql<{ n: number }>`select
            (select count(*) from (${source} except all select term, sort_key, id from ${terms}) as a)
            + (select count(*) from (select term, sort_key, id from ${terms} except all ${source}) as b)
            as n`.execute(database.db);
          assert.equal(Number(rows[0]?.n), 0, `${when}: ${table}_terms holds every key, and no other`);
        }
        // The keys the store asks for are the ones the triggers write (a year floored to its decade).
        for (const [jahr, decade] of [
          [-5, -10],
          [0, 0],
          [7, 0],
          [1899, 1890],
          [1900, 1900],
        ] as const) {
          const { rows } = await sql<{
            term: string;
          }>`select work_decade_term(${jahr}::integer) as term`.execute(database.db);
          assert.equal(rows[0]?.term, decadeTerm(decade), `${when}: the key of ${jahr}`);
        }
        for (const [search, q] of [
          [{ ...SEARCH, termIndex: true }, 'der kleine'],
          [{ ...PERSON_SEARCH, termIndex: true }, 'a'],
        ] as const) {
          const plan = await planFullText(database.db, database.capabilities, search, q);
          assert.ok(plan?.kind === 'filter' && plan.filter.terms, `${when}: ${q}: the term index is used`);
        }
      }
      // Staff see every live person, anyone else the public ones (with a live work, ADR 0062).
      for (const [q, viewer] of PERSON_QUERIES.flatMap((q) => [STAFF, null].map((v) => [q, v] as const))) {
        let reference = database.db
          .selectFrom('persons')
          .select('id')
          .where('deleted_at', 'is', null)
          .where(fullTextMatch(database.capabilities, PERSON_SEARCH, q)!);
        if (viewer === null) reference = reference.where('public', '=', 1);
        const rows = await reference.orderBy('sort_key').orderBy('id').execute();
        const found: number[] = [];
        let after: string | undefined;
        do {
          const page = await stores.persons.list({ q, limit: 7, after }, viewer);
          found.push(...page.items.map((p) => p.id));
          after = page.next;
        } while (after !== undefined);
        assert.deepEqual(
          found,
          rows.map((r) => r.id),
          `${when}: persons q=${q} as ${viewer?.role ?? 'anonymous'}`,
        );
      }
      // A decade filter beside the words (on PostgreSQL a group of the term index, ADR 0113):
      // the two commonest decades, each alone and both.
      const { rows: common } = await sql<{ decade: number }>`select jahr - ((jahr % 10) + 10) % 10 as decade
        from works where deleted_at is null and jahr is not null group by 1 order by count(*) desc, 1 limit 2`.execute(
        database.db,
      );
      const decades = common.map((r) => Number(r.decade));
      for (const dekade of [[decades[0]!], decades]) {
        for (const q of ['der', 'die kleine', 'garten 3', 'd', 'neuname']) {
          const expected = await reference(q, dekade);
          const found: number[] = [];
          let after: string | undefined;
          do {
            const page = await stores.works.list({ q, limit: 7, after, facets: { dekade } });
            found.push(...page.items.map((w) => w.id));
            after = page.next;
          } while (after !== undefined);
          assert.deepEqual(found, expected, `${when}: q=${q} in ${dekade.join(', ')}`);
        }
      }
      for (const q of QUERIES) {
        const expected = await reference(q);
        const forward: number[] = [];
        let next: string | undefined;
        let last: string | undefined;
        do {
          const page = await stores.works.list({ q, limit: 7, after: next });
          forward.push(...page.items.map((w) => w.id));
          if (page.next === undefined && page.items.length > 0) last = page.prev ?? '';
          next = page.next;
        } while (next !== undefined);
        assert.deepEqual(forward, expected, `${when}: q=${q} forwards`);
        if (expected.length <= 7 || last === undefined) continue;
        const backward: number[] = [];
        let prev: string | undefined = last;
        while (prev) {
          const page = await stores.works.list({ q, limit: 7, before: prev });
          backward.unshift(...page.items.map((w) => w.id));
          prev = page.prev;
        }
        assert.deepEqual(backward, expected.slice(0, backward.length), `${when}: q=${q} backwards`);
        assert.equal(
          backward.length + 7 >= expected.length,
          true,
          `${when}: q=${q} backwards reaches page 1`,
        );
      }
    }

    test('inserts between the same neighbours, past the halvings one gap allows', async () => {
      await assertExact('generated');
      // Same title: each new work sorts right after the previous one and before the next title,
      // so every insert halves the same gap and the window around it is respaced.
      const halvings = Math.log2(RANK_GAP);
      for (let i = 0; i < halvings + 12; i++) await stores.works.create({ titel: 'Aaa zwischen' });
      for (let i = 0; i < 10; i++) await stores.works.create({ titel: `Der kleine Garten 3 ${i}` });
      for (let i = 0; i < halvings + 6; i++)
        await stores.persons.create({ vorname: 'Anna', nachname: 'Zwischen' });
      await assertExact('after inserts');
    });

    test('renames that move works, person renames, soft and hard deletes', async () => {
      const ids = (await database.db.selectFrom('works').select('id').orderBy('id').execute()).map(
        (r) => r.id,
      );
      for (const id of ids.filter((_, i) => i % 9 === 1))
        await stores.works.replace(id, { titel: `Aaa neuname ${id}` });
      for (const id of ids.filter((_, i) => i % 9 === 2))
        await stores.works.replace(id, { titel: `Zzzz ${id}`, personIds: [1] });
      // Same title again: the sort key is rewritten unchanged.
      for (const id of ids.filter((_, i) => i % 9 === 3)) {
        const work = await stores.works.byId(id);
        assert.ok(work && 'found' in work);
        await stores.works.replace(id, { titel: work.found.titel });
      }
      for (const id of ids.filter((_, i) => i % 9 === 4)) assert.ok(await stores.works.delete(id));
      for (const id of ids.filter((_, i) => i % 9 === 5))
        await database.db.deleteFrom('works').where('id', '=', id).execute();
      const person = await database.db
        .selectFrom('persons')
        .select('id')
        .where('nachname', '=', 'Koch')
        .executeTakeFirst();
      assert.ok(person);
      await stores.persons.replace(person.id, { vorname: 'Neuname', nachname: 'Müller' });
      const others = await database.db.selectFrom('persons').select('id').orderBy('id').limit(40).execute();
      for (const { id } of others.filter((_, i) => i % 4 === 1))
        await stores.persons.replace(id, { vorname: 'Aaron', nachname: `Neuname ${id}` });
      for (const { id } of others.filter((_, i) => i % 4 === 2)) await stores.persons.delete(id);
      // A tool changing only sort keys (the searched text stays): the term index moves the keys.
      if (!sqlite)
        await sql`update works set sort_key = 'aab ' || sort_key where id % 11 = 0`.execute(database.db);
      // A tool changing years, some across a decade, some within one: the decade keys follow.
      await sql`update works set jahr = jahr + 7 where id % 13 = 0`.execute(database.db);
      // Undeleted works come back with their decade.
      await sql`update works set deleted_at = null where id in (select id from works
        where deleted_at is not null order by id limit 5)`.execute(database.db);
      await assertExact('after renames and deletes');
    });
  });
}
