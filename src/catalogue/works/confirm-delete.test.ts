// A work's delete confirmation (`?loeschen`, ADR 0028): with a copy on loan the page says at
// once that the work cannot be deleted (the DELETE would be 409, ADR 0058) and offers no button;
// without one it offers "Endgültig löschen" as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Copy } from '../copies/index.ts';
import type { Work } from '../model.ts';
import { faust, fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { STAFF } from '../../../test/kit/catalogue/write-support.ts';
import { workView } from './work-view.ts';

const at = new Date('2026-11-01T10:00:00Z');
const copy = (nummer: number, status: Copy['status']): Copy => ({
  id: nummer,
  slug: String(nummer),
  nummer,
  werk: { id: faust.id, slug: faust.slug, titel: faust.titel },
  signatur: `Goe 1 Fa+${nummer}`,
  barcode: `SM10-${nummer}`,
  standort: 'Freihand',
  status,
  updatedAt: at,
  changedAt: at,
});
const ben = { id: 4, slug: 'ben-brandt', vorname: 'Ben', nachname: 'Brandt' };
const page = (w: Work) =>
  workView.html(w, fakeContext({ user: STAFF, format: 'html', query: 'loeschen' })).toString();

test('a work with a copy on loan: "cannot be deleted", no delete button', () => {
  const lent: Work = {
    ...faust,
    copies: [
      copy(1, { kind: 'verfuegbar' }),
      copy(2, { kind: 'ausgeliehen', faellig: at, loanId: 9, person: ben }),
    ],
  };
  const html = page(lent);
  assert.match(html, /„Faust“ kann nicht gelöscht werden/);
  assert.match(html, /Ein Exemplar ist ausgeliehen/);
  assert.doesNotMatch(html, /Endgültig löschen/);
  assert.doesNotMatch(html, /<form class="delete"/);
});

test('a work without loans: the confirmation with its button', () => {
  const html = page({ ...faust, copies: [copy(1, { kind: 'verfuegbar' })] });
  assert.match(html, /Endgültig löschen/);
});
