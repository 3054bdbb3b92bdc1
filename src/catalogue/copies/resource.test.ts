// The copy resources over the real stores (in-memory SQLite): reads for everyone without the
// borrower's name, staff writes through the write flow, conflicts, and schema-valid renderings
// of the copy, the copies list and the work that lists its copies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../shared/index.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import {
  bodyOf,
  fieldsOf,
  MEMBER,
  representationOf,
  run,
  statusOf,
} from '../../../test/kit/catalogue/write-support.ts';
import { workResource } from '../works/index.ts';
import { copiesResource, copyResource } from './resource.ts';

async function setup() {
  const stores = await memoryCatalogue();
  const goethe = await stores.persons.create({
    vorname: 'Johann Wolfgang',
    nachname: 'von Goethe',
    slug: 'goethe',
  });
  const faust = await stores.works.create({ titel: 'Faust', exemplare: 2, personIds: [goethe.id] });
  const reader = await stores.persons.create({ vorname: 'Anna', nachname: 'Berger', slug: 'anna-berger' });
  const lent = await stores.loans.borrow(reader.id, { slug: 'faust' });
  assert.ok(lent.ok);
  return {
    stores,
    faust,
    all: copiesResource(stores.copies, stores.works),
    one: copyResource(stores.copies, stores.works),
    work: workResource(stores.works, stores.persons),
  };
}

const list = { query: 'werk=faust', path: '/werke/faust/exemplare' };
const copy = (n: number) => ({ query: `werk=faust&slug=${n}`, path: `/werke/faust/exemplare/${n}` });
const xmlBody = (s: string) => s.replace(/^<\?xml[^>]*>\n/, '');

test('the copies list and a copy: schema-valid; the borrower only for staff', async () => {
  const { all, one } = await setup();
  const rep = representationOf(await run(all, 'GET', { ...list, user: null }));
  const json = JSON.parse(bodyOf(rep, 'json', { user: null })) as { exemplar: Record<string, unknown>[] };
  assert.equal(jsonErrors('copies', json), '');
  assert.deepEqual(
    json.exemplar.map((c) => [c.url, c.status]),
    [
      ['https://library.example/werke/faust/exemplare/1', 'ausgeliehen'],
      ['https://library.example/werke/faust/exemplare/2', 'verfuegbar'],
    ],
  );
  assert.match(String(json.exemplar[0]!.signatur), /^Goe \d+ Fa$/);
  assert.match(String(json.exemplar[1]!.signatur), /^Goe \d+ Fa\+2$/);
  assert.ok(typeof json.exemplar[0]!.faellig === 'string');
  assert.equal(await xmlErrors('copies', xmlBody(bodyOf(rep, 'xml', { user: null }))), '');
  const anonymous = bodyOf(rep, 'html', { user: null });
  assert.doesNotMatch(anonymous, /Berger/, 'no borrower for anonymous clients');
  assert.doesNotMatch(bodyOf(rep, 'json', { user: MEMBER }), /Berger/, 'nor for members');
  assert.match(bodyOf(rep, 'json'), /Anna Berger/, 'staff see who has it');
  const first = representationOf(await run(one, 'GET', { ...copy(1), user: null }));
  const firstJson = JSON.parse(bodyOf(first, 'json', { user: null })) as Record<string, unknown>;
  assert.equal(jsonErrors('copy', firstJson), '');
  assert.equal(firstJson.exemplare, 'https://library.example/werke/faust/exemplare');
  assert.deepEqual(firstJson.werk, { titel: 'Faust', url: 'https://library.example/werke/faust' });
  assert.equal(firstJson.ausgeliehenVon, undefined);
  const staffJson = JSON.parse(bodyOf(first, 'json')) as Record<string, unknown>;
  assert.equal(jsonErrors('copy', staffJson), '');
  assert.deepEqual(staffJson.ausgeliehenVon, {
    name: 'Anna Berger',
    url: 'https://library.example/personen/anna-berger',
  });
  assert.equal(await xmlErrors('copy', xmlBody(bodyOf(first, 'xml'))), '');
  assert.equal(await xmlErrors('copy', xmlBody(bodyOf(first, 'xml', { user: null }))), '');
  assert.equal(statusOf(await run(one, 'GET', copy(9))), 404);
  assert.equal(statusOf(await run(one, 'GET', { query: 'werk=faust&slug=x', path: '/' })), 404);
  assert.equal(statusOf(await run(all, 'GET', { query: 'werk=gibt-es-nicht', path: '/' })), 404);
});

test('the work lists its copies with status and links: schema-valid', async () => {
  const { work } = await setup();
  const rep = representationOf(
    await run(work, 'GET', { query: 'slug=faust', path: '/werke/faust', user: null }),
  );
  const json = JSON.parse(bodyOf(rep, 'json', { user: null })) as Record<string, unknown>;
  assert.equal(jsonErrors('work', json), '');
  assert.equal(json.exemplare, 2);
  assert.equal(json.verfuegbar, 1);
  const bestand = json.bestand as { url: string; exemplar: { status: string }[] };
  assert.equal(bestand.url, 'https://library.example/werke/faust/exemplare');
  assert.deepEqual(
    bestand.exemplar.map((c) => c.status),
    ['ausgeliehen', 'verfuegbar'],
  );
  assert.equal(await xmlErrors('work', xmlBody(bodyOf(rep, 'xml', { user: null }))), '');
  assert.equal(await xmlErrors('work', xmlBody(bodyOf(rep, 'xml'))), '');
  const page = bodyOf(rep, 'html', { user: null });
  assert.match(page, /href="\/werke\/faust\/exemplare\/2">Goe \d+ Fa\+2<\/a>/);
  assert.match(page, /ausgeliehen bis/);
  assert.doesNotMatch(page, /Berger/);
});

test('staff create, edit and withdraw copies; members and anonymous clients may not', async () => {
  const { all, one, stores, faust } = await setup();
  const body = { signatur: 'Goe 12 Fa+3', barcode: 'X-100', standort: 'Magazin' };
  assert.equal(statusOf(await run(all, 'POST', { ...list, body, user: MEMBER })), 403);
  assert.equal(statusOf(await run(all, 'POST', { ...list, body, user: null })), 403);
  const created = await run(all, 'POST', { ...list, body });
  assert.equal(statusOf(created), 201);
  assert.ok(!(created instanceof HttpError) && created.type === 'representation');
  assert.equal(created.location, '/werke/faust/exemplare/3');
  const again = await stores.works.byId(faust.id);
  assert.ok(again && 'found' in again);
  assert.equal(again.found.exemplare, 3, 'works.exemplare counts the live copies');
  assert.equal(again.found.verfuegbar, 2);
  // Barcodes are unique; bad input is 422 with every field.
  assert.equal(statusOf(await run(all, 'POST', { ...list, body })), 409);
  assert.deepEqual(
    fieldsOf(await run(all, 'POST', { ...list, body: { barcode: 'a b', vermisst: 'vielleicht' } })),
    ['signatur', 'barcode', 'standort', 'vermisst'],
  );
  // PATCH: reported missing, then not available any more.
  const patched = await run(one, 'PATCH', { ...copy(3), body: { vermisst: true } });
  assert.equal(statusOf(patched), 200);
  const patchedJson = JSON.parse(bodyOf(representationOf(patched), 'json')) as Record<string, unknown>;
  assert.equal(patchedJson.status, 'vermisst');
  assert.equal(jsonErrors('copy', patchedJson), '');
  const missing = await stores.works.byId(faust.id);
  assert.ok(missing && 'found' in missing && missing.found.verfuegbar === 1);
  // The HTML form: a hidden "false", then the ticked checkbox's "true".
  const form = await run(one, 'PUT', { ...copy(3), body: { ...body, vermisst: ['false', 'true'] } });
  assert.equal(statusOf(form), 200);
  assert.equal((representationOf(form).model as { status: { kind: string } }).status.kind, 'vermisst');
  const put = await run(one, 'PUT', { ...copy(3), body: { ...body, standort: 'Lesesaal', vermisst: false } });
  assert.equal(statusOf(put), 200);
  assert.equal((representationOf(put).model as { standort: string }).standort, 'Lesesaal');
  // Withdrawing: a copy on loan stays (409); a free one goes (204, then 410).
  const refused = await run(one, 'DELETE', copy(1));
  assert.equal(statusOf(refused), 409);
  assert.ok(refused instanceof HttpError && refused.code === 'SHELFMARK_COPY_ON_LOAN');
  assert.equal(statusOf(await run(one, 'DELETE', { ...copy(3), user: MEMBER })), 403);
  assert.equal(statusOf(await run(one, 'DELETE', copy(3))), 204);
  assert.equal(statusOf(await run(one, 'GET', copy(3))), 410);
  const after = await stores.works.byId(faust.id);
  assert.ok(after && 'found' in after && after.found.exemplare === 2);
});
