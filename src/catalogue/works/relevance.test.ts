// `sortierung=relevanz` (ADR 0080): exact title and name matches first, then every other match,
// each part in list order; the same rows as today's order, every page forwards and backwards
// exact, on both engines; the parameter is kept by the paging links in every format.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import type { PageRequest } from '../model.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { fakeContext, render, renderText, squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { HttpError } from '../shared/index.ts';
import { allPages } from './search-order.fixture.ts';
import { worksResource } from './resource.ts';
import { relevancePage, type Keyed } from './relevance.ts';
import { keysetPage, wantsGenericPlan, type Key, type KeysetRequest } from '../../storage/index.ts';
import { exactKeysQuery } from './store.ts';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`relevance order on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    const titles = new Map<number, string>();
    let goethe: number;
    let other: number;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      goethe = (await stores.persons.create({ vorname: 'Johann Wolfgang', nachname: 'von Goethe' })).id;
      other = (await stores.persons.create({ vorname: 'Anna', nachname: 'Faustmann' })).id;
      const add = async (titel: string, personIds: number[] = []) => {
        const work = await stores.works.create({ titel, personIds });
        titles.set(work.id, titel);
      };
      // Titles that contain "faust" sort before and after the one that is "Faust".
      for (const titel of ['Abenteuer mit Faust', 'Doktor Faustus', 'Faust und Mephisto', 'Urfaust'])
        await add(titel, [other]);
      await add('Faust', [goethe]);
      await add('Faust', []);
      await add('Zur Farbenlehre', [goethe]);
      const gone = await stores.works.create({ titel: 'Faust', personIds: [] });
      assert.ok(await stores.works.delete(gone.id));
      for (let i = 0; i < 25; i++) await add(`Faustrecht ${String(i).padStart(2, '0')}`);
    });
    after(() => database?.dispose());

    const ranked = (q: string, limit: number) =>
      allPages(
        { ...stores.works, list: (r: PageRequest) => stores.works.list({ ...r, order: 'relevanz' }) },
        q,
        limit,
      );
    const named = (ids: readonly number[]) => ids.map((id) => titles.get(id)!);

    test('exact title matches first, then the rest in list order, the same rows', async () => {
      const plain = await allPages(stores.works, 'faust', 100);
      const ids = await ranked('faust', 100);
      assert.deepEqual(named(ids.slice(0, 2)), ['Faust', 'Faust']);
      assert.deepEqual(
        ids.slice(2),
        plain.filter((id) => !ids.slice(0, 2).includes(id)),
      );
      assert.deepEqual([...ids].sort(), [...plain].sort());
      for (const limit of [1, 2, 3, 7])
        assert.deepEqual(await ranked('faust', limit), ids, `pages of ${limit}`);
    });

    test("an author's name puts the author's works first", async () => {
      assert.deepEqual(named(await ranked('goethe', 10)), ['Faust', 'Zur Farbenlehre']);
      assert.deepEqual(named((await ranked('von goethe', 10)).slice(0, 2)), ['Faust', 'Zur Farbenlehre']);
      const full = named(await ranked('johann wolfgang von goethe', 10));
      assert.deepEqual(full, ['Faust', 'Zur Farbenlehre']);
      const faustmann = named(await ranked('faustmann', 10));
      assert.deepEqual(faustmann.slice(0, 4), [
        'Abenteuer mit Faust',
        'Doktor Faustus',
        'Faust und Mephisto',
        'Urfaust',
      ]);
    });

    test('the works of one person or of several are one statement text, kept prepared, no row of works read', async () => {
      const ofPersons = (ids: number[]) => exactKeysQuery(database.db, undefined, ids, undefined);
      const one = ofPersons([goethe]);
      const two = ofPersons([goethe, other]);
      assert.equal(one.sql, two.sql, 'the list is one parameter');
      assert.ok(wantsGenericPlan(one), 'planned once per connection (ADR 0121)');
      // The links' own keys (migration 0035, ADR 0124): the works table is not read.
      assert.doesNotMatch(one.sql, /"works"/);
      const titlesOf = async (query: typeof one) =>
        (await database.db.executeQuery(query)).rows.map((w) => titles.get(Number(w.id)));
      assert.deepEqual(await titlesOf(one), ['Faust', 'Zur Farbenlehre']);
      assert.deepEqual(await titlesOf(two), [
        'Abenteuer mit Faust',
        'Doktor Faustus',
        'Faust',
        'Faust und Mephisto',
        'Urfaust',
        'Zur Farbenlehre',
      ]);
    });

    test("a renamed or deleted work moves or leaves its author's exact part", async () => {
      const keys = async () =>
        (await database.db.executeQuery(exactKeysQuery(database.db, undefined, [goethe], undefined))).rows;
      const farbenlehre = [...titles].find(([, titel]) => titel === 'Zur Farbenlehre')![0];
      const renamed = await stores.works.replace(farbenlehre, {
        titel: 'Aber Farbenlehre',
        personIds: [goethe],
      });
      assert.equal(renamed?.titel, 'Aber Farbenlehre');
      titles.set(farbenlehre, 'Aber Farbenlehre');
      try {
        assert.deepEqual(
          (await keys()).map((k) => titles.get(Number(k.id))),
          ['Aber Farbenlehre', 'Faust'],
          'the new title sorts first',
        );
        assert.deepEqual(named((await ranked('goethe', 10)).slice(0, 2)), ['Aber Farbenlehre', 'Faust']);
        assert.ok(await stores.works.delete(farbenlehre));
        assert.deepEqual(
          (await keys()).map((k) => titles.get(Number(k.id))),
          ['Faust'],
          'a deleted work has no key',
        );
        assert.deepEqual(named(await ranked('goethe', 10)), ['Faust']);
      } finally {
        titles.delete(farbenlehre);
      }
    });

    test('backwards from every page gives the page before', async () => {
      const forward: { ids: number[]; prev?: string | undefined }[] = [];
      let cursor: string | undefined;
      do {
        const page = await stores.works.list({ q: 'faust', order: 'relevanz', limit: 3, after: cursor });
        forward.push({ ids: page.items.map((w) => w.id), prev: page.prev });
        cursor = page.next;
      } while (cursor);
      assert.equal(forward[0]!.prev, undefined, 'the first page has no prev');
      for (let i = 1; i < forward.length; i++) {
        const back = await stores.works.list({
          q: 'faust',
          order: 'relevanz',
          limit: 3,
          before: forward[i]!.prev,
        });
        assert.deepEqual(
          back.items.map((w) => w.id),
          forward[i - 1]!.ids,
          `page ${i} back`,
        );
        assert.equal(back.prev === undefined, i === 1, `page ${i - 1} knows whether it is the first`);
      }
    });

    test('sortierung is kept by paging and suggestion links, shown and valid in every format', async () => {
      const get = (query: string) => worksResource(stores.works).methods.GET!(fakeContext({ query }));
      const outcome = await get('q=faust&sortierung=relevanz&anzahl=2');
      const json = render(outcome, 'json') as {
        sortierung?: string;
        naechste: string;
        werk: { titel: string }[];
      };
      assert.equal(json.sortierung, 'relevanz');
      assert.deepEqual(
        json.werk.map((w) => w.titel),
        ['Faust', 'Faust'],
      );
      assert.match(
        json.naechste,
        /^https:\/\/library\.example\/werke\?q=faust&sortierung=relevanz&nach=.+&anzahl=2$/,
      );
      assert.equal(jsonErrors('works', json), '');
      const xml = renderText(outcome, 'xml');
      assert.match(xml, /<sortierung>relevanz<\/sortierung>/);
      assert.equal(await xmlErrors('works', xml), '');
      const html = squash(renderText(outcome, 'html'));
      assert.match(html, /<strong aria-current="true">Relevanz<\/strong>/);
      assert.match(html, /<a href="\/werke\?q=faust&amp;anzahl=2" rel="nofollow">Titel<\/a>/);
      await assert.rejects(
        get('q=faust&sortierung=zufall'),
        (e) => e instanceof HttpError && e.status === 400,
      );
      const unsearched = render(await get('sortierung=relevanz'), 'json') as { sortierung?: string };
      assert.equal(unsearched.sortierung, undefined, 'without a search the list order is the only one');
    });
  });
}

describe('a relevance page reads the plain order as few times as it can', () => {
  // Thirty rows in list order; the third and the twenty-sixth are the exact part.
  const rows: Keyed[] = Array.from({ length: 30 }, (_, i) => ({
    id: i + 1,
    sort_key: `k${String(i).padStart(2, '0')}`,
  }));
  const exact = [rows[2]!, rows[25]!];
  const keyOf = (r: Keyed): Key => [r.sort_key, r.id];
  /** The rows of exact keys, as the works store reads them for a page. */
  const rowsOf = (ids: readonly number[]) => Promise.resolve(rows.filter((r) => ids.includes(r.id)));
  const beyond = (r: Keyed, key: Key, direction: 'after' | 'before') =>
    direction === 'after' ? r.sort_key > key[0]! : r.sort_key < key[0]!;

  /** The plain order over `rows` through the real keysetPage, counting its pages and probes. */
  function plainOrder() {
    const seen = { pages: 0, probes: 0 };
    const plain = (request: KeysetRequest) => {
      seen.pages++;
      return keysetPage(request, {
        keyTypes: ['string', 'number'],
        fetch: (key, direction, limit) => {
          const order = direction === 'after' ? rows : [...rows].reverse();
          return Promise.resolve(order.filter((r) => !key || beyond(r, key, direction)).slice(0, limit));
        },
        exists: (key, side) => {
          seen.probes++;
          return Promise.resolve(rows.some((r) => r.sort_key === key[0] || beyond(r, key, side)));
        },
        keyOf,
      });
    };
    return { seen, plain };
  }

  test('a first page with a few exact rows takes one plain page, and no page asks what lies behind it', async () => {
    const { seen, plain } = plainOrder();
    const page = await relevancePage({ limit: 5 }, exact, plain, rowsOf);
    assert.deepEqual(
      page.items.map((r) => r.id),
      [3, 26, 1, 2, 4],
    );
    assert.equal(seen.pages, 1, 'the exact row among the plain ones did not cost a second page');
    assert.equal(seen.probes, 0);
  });

  test('every page forwards and backwards, without a probe', async () => {
    const expected = [3, 26, ...rows.map((r) => r.id).filter((id) => id !== 3 && id !== 26)];
    for (const limit of [1, 2, 3, 7]) {
      const { seen, plain } = plainOrder();
      const forward: { ids: number[]; prev?: string | undefined }[] = [];
      let after: string | undefined;
      do {
        const page = await relevancePage({ limit, after }, exact, plain, rowsOf);
        forward.push({ ids: page.items.map((r) => r.id), prev: page.prev });
        after = page.next;
      } while (after);
      assert.deepEqual(
        forward.flatMap((p) => p.ids),
        expected,
        `pages of ${limit}`,
      );
      for (let i = 1; i < forward.length; i++) {
        const back = await relevancePage({ limit, before: forward[i]!.prev }, exact, plain, rowsOf);
        assert.deepEqual(
          back.items.map((r) => r.id),
          forward[i - 1]!.ids,
          `pages of ${limit}, page ${i} back`,
        );
      }
      assert.equal(seen.probes, 0, `pages of ${limit}`);
    }
  });
});
