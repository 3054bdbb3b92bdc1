import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeContext, fakeWorkStore, render, renderText, squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { homeResource } from './resource.ts';

test('home links the collections and the search, highlights works, validates', async () => {
  const store = fakeWorkStore();
  const outcome = await homeResource(store, { highlights: 4 }).methods.GET!(fakeContext());
  assert.equal(store.calls.at(-1)?.limit, 4);
  assert.ok(outcome.type === 'representation' && outcome.representation.canonicalPath === '/');
  const xml = renderText(outcome, 'xml');
  assert.equal(
    xml,
    `<katalog>
  <titel>Shelfmark</titel>
  <personen ref="https://library.example/personen"/>
  <werke ref="https://library.example/werke"/>
  <suche ref="https://library.example/werke" parameter="q"/>
  <hervorgehoben>
    <werk ref="https://library.example/werke/faust">Faust</werk>
  </hervorgehoben>
</katalog>`,
  );
  assert.equal(await xmlErrors('home', xml), '');
  assert.equal(jsonErrors('home', render(outcome, 'json')), '');
  const html = squash(renderText(outcome, 'html'));
  assert.match(html, /<label for="suche-start">/);
  assert.match(html, /<a href="\/personen">Personen<\/a>/);
  assert.match(html, /<a class="card-title" href="\/werke\/faust">Faust<\/a>/);
  assert.match(html, /<link rel="alternate" type="application\/json" href="\/index\.json">/);
  assert.match(html, /<link rel="alternate" type="application\/xml" href="\/index\.xml">/);
});

test('home: one search box (no second one in the header); the highlights are the newest works', async () => {
  const { catalogueTestTargets } = await import('../../../test/kit/catalogue/targets.ts');
  const { createStores } = await import('../stores.ts');
  const [sqlite] = catalogueTestTargets(undefined);
  const database = await sqlite!.open();
  try {
    const stores = createStores(database.db);
    // Entered in this order: alphabetically the first would be "Aaa", the newest is "Zzz".
    for (const titel of ['Mmm Mitte', 'Aaa Anfang', 'Zzz Ende'])
      await stores.works.create({ titel, exemplare: 1 });
    const outcome = await homeResource(stores.works, { highlights: 2 }).methods.GET!(fakeContext());
    const json = render(outcome, 'json') as { werk: { titel: string }[] };
    assert.deepEqual(
      json.werk.map((w) => w.titel),
      ['Zzz Ende', 'Aaa Anfang'],
    );
    const html = renderText(outcome, 'html');
    assert.equal((html.match(/role="search"/g) ?? []).length, 1, 'one search form');
    assert.match(html, /Neu im Bestand/);
  } finally {
    await database.dispose();
  }
});
