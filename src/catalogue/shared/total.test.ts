import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { STAFF } from '../../../test/kit/catalogue/write-support.ts';
import { SEARCH_COUNT_CAP } from './keyed-list.ts';
import { totalJson, totalXml } from './total-view.ts';

test('a list counts every live row it shows; a search with more matches than the cap says "more than"', async () => {
  const { persons, works } = await memoryCatalogue();
  const n = SEARCH_COUNT_CAP + 20;
  for (let i = 0; i < n; i += 1) await persons.create({ vorname: 'Anna', nachname: `Muster ${i}` });
  const selten = await persons.create({ vorname: 'Bert', nachname: 'Selten' });
  const gone = await persons.create({ vorname: 'Bert', nachname: 'Geloescht' });
  await persons.delete(gone.id);

  // Staff see every live person (ADR 0062).
  assert.deepEqual((await persons.list({ limit: 5 }, STAFF)).total, { count: n + 1, exact: true });
  assert.deepEqual((await persons.list({ q: 'bert', limit: 5 }, STAFF)).total, { count: 1, exact: true });
  assert.deepEqual((await persons.list({ q: 'anna', limit: 5 }, STAFF)).total, {
    count: SEARCH_COUNT_CAP,
    exact: false,
  });
  assert.deepEqual((await persons.list({ q: 'nichts', limit: 5 }, STAFF)).total, { count: 0, exact: true });
  // Anyone else the public ones: none has a work yet, then one has.
  assert.deepEqual((await persons.list({ limit: 5 })).total, { count: 0, exact: true });
  assert.deepEqual((await persons.list({ q: 'anna', limit: 5 })).total, { count: 0, exact: true });
  await works.create({ titel: 'Seltenes', personIds: [selten.id] });
  assert.deepEqual((await persons.list({ limit: 5 })).total, { count: 1, exact: true });
  assert.deepEqual((await persons.list({ q: 'bert', limit: 5 })).total, { count: 1, exact: true });
});

test('an exact total is gesamt, a lower bound gesamtMehrAls (never passed off as the total)', () => {
  assert.deepEqual(totalJson({ count: 7, exact: true }), { gesamt: 7 });
  assert.deepEqual(totalJson({ count: 500, exact: false }), { gesamtMehrAls: 500 });
  assert.equal(totalXml({ count: 500, exact: false }).text, '\n  <gesamtMehrAls>500</gesamtMehrAls>');
  assert.deepEqual(totalJson(undefined), {});
});
