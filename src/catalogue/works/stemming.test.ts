// Stemming (ADR 0079): inflected forms find the word a title or name holds — `goethes`,
// `schillers`, `verwandlungen`, `gärten` — on both engines, through every plan the store picks
// (ranked FTS5 or the walk on SQLite, the term index on PostgreSQL) and through the plain filter,
// which must all agree. A stem never widens a query beyond its word's family.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { fullTextMatch, stems } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { allPages } from './search-order.fixture.ts';
import { searchStems } from '../migrations/index.ts';

const SEARCH = { idColumn: 'works.id', ftsTable: 'works_fts', vectorColumn: 'works.search_vector' };

test('stems: German and English, ASCII, at least 4 letters, never the word itself', () => {
  assert.deepEqual(stems('Goethes'), ['goeth', 'goth'], 'oe also read as ö');
  assert.deepEqual(stems('gaerten'), ['gaert', 'gart']);
  assert.deepEqual(stems('verwandlungen'), ['verwandl']);
  assert.deepEqual(stems('gärten'), ['gart']);
  assert.deepEqual(stems('schillers'), ['schill', 'schiller']);
  assert.deepEqual(stems('die'), []);
  assert.deepEqual(stems('eine'), [], 'ein: too short to be a stem');
});

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`stemmed search on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    const titles = new Map<number, string>();

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      const person = (vorname: string, nachname: string) => stores.persons.create({ vorname, nachname });
      const goethe = await person('Johann Wolfgang', 'von Goethe');
      const schiller = await person('Friedrich', 'Schiller');
      const kafka = await person('Franz', 'Kafka');
      const works: [string, number[]][] = [
        ['Faust', [goethe.id]],
        ['Die Leiden des jungen Werthers', [goethe.id]],
        ['Die Räuber', [schiller.id]],
        ['Die Verwandlung', [kafka.id]],
        ['Der Garten', []],
        ['Gärten der Welt', []],
        ['Gartenzwerge', []],
        ['Schillerlocken', []],
        ['Das Schloss', [kafka.id]],
      ];
      for (const [titel, personIds] of works) {
        const work = await stores.works.create({ titel, personIds });
        titles.set(work.id, titel);
      }
    });
    after(() => database?.dispose());

    async function found(q: string): Promise<string[]> {
      const ids = await allPages(stores.works, q, 2);
      const match = fullTextMatch(database.capabilities, SEARCH, q);
      const plain = await database.db
        .selectFrom('works')
        .select('id')
        .where('deleted_at', 'is', null)
        .where(match!)
        .orderBy('sort_key')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        plain.map((r) => r.id),
        ids,
        `q=${q}: the store's plan and the plain filter agree`,
      );
      return ids.map((id) => titles.get(id)!);
    }

    test('goethes, schillers, verwandlungen and gärten find their words', async () => {
      assert.deepEqual(await found('goethes'), ['Die Leiden des jungen Werthers', 'Faust']);
      assert.deepEqual(await found('schillers'), ['Die Räuber'], 'not Schillerlocken: another word');
      assert.deepEqual(await found('verwandlungen'), ['Die Verwandlung']);
      // `garten` is one of its spellings (umlaut dropped), a prefix as before.
      assert.deepEqual(await found('gärten'), ['Der Garten', 'Gärten der Welt', 'Gartenzwerge']);
      assert.deepEqual(await found('gaerten'), ['Der Garten', 'Gärten der Welt']);
      assert.deepEqual(await found('kafkas verwandlungen'), ['Die Verwandlung']);
    });

    test('prefixes still match as before, and a stem finds only its word family', async () => {
      assert.deepEqual(await found('garten'), ['Der Garten', 'Gärten der Welt', 'Gartenzwerge']);
      assert.deepEqual(await found('werther'), ['Die Leiden des jungen Werthers']);
      assert.deepEqual(await found('schlosses'), ['Das Schloss']);
      assert.deepEqual(await found('gartens'), ['Der Garten', 'Gärten der Welt']);
      assert.deepEqual(await found('verwandtschaft'), []);
    });

    test('migration 0017 adds the stems to rows written before it', async () => {
      // The text as the code before stemming wrote it: the words (no variants needed here).
      await database.db
        .updateTable('works')
        .set({ search_text: sql`titel` })
        .execute();
      await database.db
        .updateTable('persons')
        .set({ search_text: sql`vorname || ' ' || nachname` })
        .execute();
      assert.deepEqual(await found('verwandlungen'), []);
      assert.equal((await stores.persons.list({ q: 'goethes', limit: 10 })).items.length, 0);
      await searchStems({ dialect: target.dialect, capabilities: database.capabilities }).up(
        database.db as never,
      );
      assert.deepEqual(await found('verwandlungen'), ['Die Verwandlung']);
      assert.deepEqual(await found('goethes'), ['Die Leiden des jungen Werthers', 'Faust']);
      assert.equal((await stores.persons.list({ q: 'goethes', limit: 10 })).items.length, 1);
    });

    test('persons are found by stemmed names too', async () => {
      const page = await stores.persons.list({ q: 'goethes', limit: 10 });
      assert.deepEqual(
        page.items.map((p) => p.nachname),
        ['von Goethe'],
      );
    });
  });
}
