// "Meinten Sie …?" (ADR 0079): a search with fewer than SUGGEST_BELOW hits suggests the query
// with each word replaced by the catalogue's most frequent term one edit away — the same on both
// engines — and the works page shows it in HTML, XML and JSON, each valid against its schema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { oneEditAway } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { fakeContext, render, renderText, squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { worksResource } from './resource.ts';

test('oneEditAway: deletions, swaps, replacements, insertions, never the word itself', () => {
  const edits = oneEditAway('fuast');
  for (const word of ['faust', 'fust', 'fuasst', 'fuost', 'ufast']) assert.ok(edits.includes(word), word);
  assert.ok(!edits.includes('fuast'));
  assert.ok(!edits.includes('faustt'), 'two edits away');
});

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`search suggestions on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      const goethe = await stores.persons.create({ vorname: 'Johann Wolfgang', nachname: 'von Goethe' });
      for (const titel of ['Faust', 'Faust II', 'Urfaust', 'Der Garten', 'Die Gärten', 'Gartenlaube'])
        await stores.works.create({ titel, personIds: titel.includes('aust') ? [goethe.id] : [] });
      await stores.works.create({ titel: 'Fasut', personIds: [] });
      const gone = await stores.works.create({ titel: 'Gorten', personIds: [] });
      assert.ok(await stores.works.delete(gone.id));
    });
    after(() => database?.dispose());

    const suggestion = async (q: string) => (await stores.works.list({ q, limit: 20 })).suggestion;

    test('a typo gets the most frequent word one edit away', async () => {
      assert.equal(await suggestion('fuast'), 'faust', 'Faust (2) over Fasut (1)');
      assert.equal(await suggestion('goehte'), 'goethe');
      assert.equal(await suggestion('gatren'), 'garten', 'deleted works do not count (Gorten)');
      assert.equal(await suggestion('goehte fuast'), 'goethe faust');
      // Folded as the index holds it: `gaerten` (Gärten's spelling), which finds Gärten and Garten.
      assert.equal(await suggestion('Gärtem'), 'gaerten');
    });

    test('no suggestion with enough hits, for short words, or without a better neighbour', async () => {
      assert.equal(await suggestion('faust'), undefined, 'two hits as typed, no word better known');
      assert.equal(await suggestion('garten'), undefined, 'three hits');
      assert.equal(await suggestion('fas'), undefined, 'shorter than 4 letters');
      assert.equal(await suggestion('qqqqqq'), undefined);
      const page2 = await stores.works.list({ q: 'fuast', limit: 1, after: 'x' }).catch(() => undefined);
      assert.equal(page2?.suggestion, undefined, 'only the first page suggests');
    });

    test('the works page shows it in HTML, XML and JSON, which validate', async () => {
      const outcome = await worksResource(stores.works).methods.GET!(
        fakeContext({ query: 'q=fuast&anzahl=5' }),
      );
      const html = squash(renderText(outcome, 'html'));
      assert.match(html, /Meinten Sie <a href="\/werke\?q=faust&amp;anzahl=5" rel="nofollow">faust<\/a>\?/);
      const xml = renderText(outcome, 'xml');
      assert.match(
        xml,
        /<vorschlag ref="https:\/\/library.example\/werke\?q=faust&amp;anzahl=5">faust<\/vorschlag>/,
      );
      assert.equal(await xmlErrors('works', xml), '');
      const json = render(outcome, 'json') as { vorschlag?: unknown };
      assert.deepEqual(json.vorschlag, {
        suche: 'faust',
        url: 'https://library.example/werke?q=faust&anzahl=5',
      });
      assert.equal(jsonErrors('works', json), '');
    });
  });
}
