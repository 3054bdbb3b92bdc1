// The life dates resource (ADR 0026) on the real stores: its representations and schemas, the
// write flow's answers (403, 404, 410, 308, 412, 422, 428, 303), and that the person's writes and
// the life dates' writes leave each other's data alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowOf } from '../../http/app/dispatch.ts';
import { squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
import { moveSlug } from '../../../test/kit/catalogue/move-slug.ts';
import {
  bodyOf,
  etagFor,
  fieldsOf,
  MEMBER,
  representationOf,
  run,
  STAFF,
  statusOf,
} from '../../../test/kit/catalogue/write-support.ts';
import { personResource } from '../persons/index.ts';
import { migrateToLatest, openDatabase } from '../../storage/index.ts';
import { catalogueMigrations } from '../migrations/index.ts';
import { createStores } from '../stores.ts';
import type { DB } from '../tables.ts';
import { lifeDatesResource } from './resource.ts';
import type { LifeDates } from './store.ts';

async function setup() {
  const catalogue = await memoryCatalogue();
  const goethe = await catalogue.persons.create({
    slug: 'goethe',
    vorname: 'Johann Wolfgang',
    nachname: 'von Goethe',
  });
  // An author, so public: anyone may read his life dates (ADR 0062).
  await catalogue.works.create({ titel: 'Faust', personIds: [goethe.id] });
  return {
    ...catalogue,
    goethe,
    resource: lifeDatesResource(catalogue.lifeDates),
    person: personResource(catalogue.persons),
  };
}

const GOETHE = { query: 'slug=goethe' };

async function current(resource: ReturnType<typeof lifeDatesResource>) {
  return representationOf(await run(resource, 'GET', GOETHE));
}

test('GET for everyone, PUT for staff; no POST or DELETE', async () => {
  const { resource } = await setup();
  assert.equal(allowOf(resource), 'GET, HEAD, PUT, OPTIONS');
  assert.equal(statusOf(await run(resource, 'GET', { ...GOETHE, user: null })), 200);
  for (const user of [MEMBER, null]) {
    const result = await run(resource, 'PUT', { ...GOETHE, user, body: { geboren: 1749 } });
    assert.equal(statusOf(result), 403);
  }
  assert.equal((representationOf(await run(resource, 'GET', GOETHE)).model as LifeDates).geboren, null);
});

test("a patron's life dates (no works): 404 to anonymous and other members, 200 to themself and staff", async () => {
  const { resource, persons } = await setup();
  const patron = await persons.create({ slug: 'anna', vorname: 'Anna', nachname: 'Berger' });
  const anna = { ...MEMBER, id: patron.id };
  const other = { ...MEMBER, id: patron.id + 1, username: 'ben' };
  const status = async (user: typeof MEMBER | null, query = { query: 'slug=anna' }) =>
    statusOf(await run(resource, 'GET', { ...query, user }));
  for (const query of [{ query: 'slug=anna' }, { query: `id=${patron.id}` }]) {
    assert.equal(await status(null, query), 404, `anonymous, ${query.query}`);
    assert.equal(await status(other, query), 404, `another member, ${query.query}`);
    assert.equal(await status(anna, query), 200, `herself, ${query.query}`);
    assert.equal(await status(STAFF, query), 200, `staff, ${query.query}`);
  }
  // Deleted: a 410 would tell that she existed.
  await persons.delete(patron.id);
  assert.equal(await status(null), 404);
  assert.equal(await status(other), 404);
  assert.equal(await status(STAFF), 410);
  assert.equal(await status(anna), 410);
});

test('XML and JSON have their fixed shapes and match both schemas', async () => {
  const { resource } = await setup();
  let rep = await current(resource);
  assert.equal(
    bodyOf(rep, 'json'),
    '{"person":"https://library.example/personen/goethe","geboren":null,"gestorben":null}',
  );
  assert.equal(
    bodyOf(rep, 'xml').replace(/^<\?xml[^>]*>\n/, ''),
    `<lebensdaten>
  <person ref="https://library.example/personen/goethe"/>
  <geboren/>
  <gestorben/>
</lebensdaten>\n`,
  );
  for (const r of [
    rep,
    representationOf(await run(resource, 'PUT', { ...GOETHE, body: { geboren: 1749, gestorben: 1832 } })),
  ]) {
    assert.equal(jsonErrors('life-dates', JSON.parse(bodyOf(r, 'json'))), '');
    assert.equal(await xmlErrors('life-dates', bodyOf(r, 'xml').replace(/^<\?xml[^>]*>\n/, '')), '');
  }
  rep = await current(resource);
  assert.equal(
    bodyOf(rep, 'json'),
    '{"person":"https://library.example/personen/goethe","geboren":1749,"gestorben":1832}',
  );
  assert.match(bodyOf(rep, 'xml'), /<geboren>1749<\/geboren>\n {2}<gestorben>1832<\/gestorben>/);
  assert.equal(rep.canonicalPath, '/personen/goethe/lebensdaten');
  assert.deepEqual(rep.links, [{ rel: 'up', path: '/personen/goethe' }]);
});

test('a GET body PUT back (JSON, XML) changes nothing', async () => {
  const { resource } = await setup();
  await run(resource, 'PUT', { ...GOETHE, body: { geboren: -70, gestorben: 19 } });
  const before = await current(resource);
  const json = JSON.parse(bodyOf(before, 'json')) as unknown;
  await run(resource, 'PUT', { ...GOETHE, body: json, ifMatch: etagFor(before, 'json') });
  // The XML body as the layer parses it: the ref element's value is its URL, years are text.
  const xmlFields = { person: 'https://library.example/personen/goethe', geboren: '-70', gestorben: '19' };
  await run(resource, 'PUT', { ...GOETHE, body: xmlFields, bodyType: 'xml' });
  assert.equal(bodyOf(await current(resource), 'json'), bodyOf(before, 'json'));
});

test('the person page links to the life dates; the staff form is there, not on the person', async () => {
  const { resource, person } = await setup();
  const personPage = squash(
    bodyOf(representationOf(await run(person, 'GET', { ...GOETHE, format: 'html' })), 'html'),
  );
  assert.match(personPage, /<a class="life-dates" href="\/personen\/goethe\/lebensdaten">Lebensdaten<\/a>/);
  assert.doesNotMatch(personPage, /name="geboren"|name="gestorben"/);
  const personRep = representationOf(await run(person, 'GET', GOETHE));
  // Beside the person's own feed (ADR 0096), the one related link is the life dates.
  assert.deepEqual(
    personRep.links?.filter((link) => link.rel === 'related'),
    [{ rel: 'related', path: '/personen/goethe/lebensdaten' }],
  );
  const page = squash(bodyOf(await current(resource), 'html'));
  assert.match(page, /<h1>Lebensdaten: Johann Wolfgang von Goethe<\/h1>/);
  assert.match(
    page,
    /<form class="write" method="post" action="\/personen\/goethe\/lebensdaten" novalidate>/,
  );
  assert.match(page, /name="_method" value="PUT"/);
  const anonymous = squash(bodyOf(await current(resource), 'html', { user: null }));
  assert.doesNotMatch(anonymous, /<form class="write"/);
  assert.match(anonymous, /<dd class="geboren">unbekannt<\/dd>/);
});

test('a form PUT answers 303 to the life dates; problems bring the form back with 422', async () => {
  const { resource } = await setup();
  const html = { ...GOETHE, format: 'html' as const };
  assert.deepEqual(await run(resource, 'PUT', { ...html, body: { geboren: '1749', gestorben: '1832' } }), {
    type: 'redirect',
    status: 303,
    path: '/personen/goethe/lebensdaten',
  });
  const bad = await run(resource, 'PUT', { ...html, body: { geboren: '1800', gestorben: '1700' } });
  assert.equal(statusOf(bad), 422);
  const page = squash(bodyOf(representationOf(bad), 'html'));
  assert.match(page, /Das Todesjahr liegt vor dem Geburtsjahr./);
  assert.match(page, /value="1700"/);
  assert.deepEqual(
    fieldsOf(await run(resource, 'PUT', { ...GOETHE, body: { geboren: 'x', gestorben: 99999 } })),
    ['geboren', 'gestorben'],
  );
  assert.equal((representationOf(await run(resource, 'GET', GOETHE)).model as LifeDates).geboren, 1749);
});

test('preconditions: a stale If-Match is 412, none while required is 428; the current one writes', async () => {
  const { resource } = await setup();
  const before = await current(resource);
  const tag = etagFor(before, 'json');
  assert.equal(
    statusOf(await run(resource, 'PUT', { ...GOETHE, body: { geboren: 1749 }, ifMatch: tag })),
    200,
  );
  assert.equal(
    statusOf(await run(resource, 'PUT', { ...GOETHE, body: { geboren: 1750 }, ifMatch: tag })),
    412,
  );
  const required = { ...GOETHE, body: { geboren: 1750 }, requirePreconditions: true };
  assert.equal(statusOf(await run(resource, 'PUT', required)), 428);
  assert.equal((representationOf(await run(resource, 'GET', GOETHE)).model as LifeDates).geboren, 1749);
});

test('unknown person 404 (PUT creates nothing), deleted 410', async () => {
  const { resource, persons, goethe } = await setup();
  assert.equal(statusOf(await run(resource, 'GET', { query: 'slug=niemand' })), 404);
  assert.equal(statusOf(await run(resource, 'PUT', { query: 'slug=niemand', body: { geboren: 1 } })), 404);
  assert.equal(await persons.bySlug('niemand'), null);
  const schiller = await persons.create({ vorname: 'Friedrich', nachname: 'Schiller' });
  assert.ok(await persons.delete(schiller.id));
  assert.equal(statusOf(await run(resource, 'GET', { query: `slug=${schiller.slug}` })), 410);
  assert.equal(statusOf(await run(resource, 'PUT', { query: `slug=${schiller.slug}`, body: {} })), 410);
  assert.equal(statusOf(await run(resource, 'GET', { query: `id=${goethe.id}` })), 200);
});

test('a moved person moves its life dates: GET 301, PUT 308 to the new URL', async () => {
  const database = await openDatabase<DB>(':memory:');
  try {
    await migrateToLatest(database, catalogueMigrations);
    const stores = createStores(database.db);
    const p = await stores.persons.create({ slug: 'alt', vorname: 'A', nachname: 'B' });
    await moveSlug(database.db, 'person', p.id, 'neu');
    const resource = lifeDatesResource(stores.lifeDates);
    const moved = { type: 'redirect', path: '/personen/neu/lebensdaten' };
    assert.deepEqual(await run(resource, 'GET', { query: 'slug=alt' }), { ...moved, status: 301 });
    assert.deepEqual(await run(resource, 'PUT', { query: 'slug=alt', body: { geboren: 1 } }), {
      ...moved,
      status: 308,
    });
  } finally {
    await database.close();
  }
});

test('a person PUT keeps the life dates; a rename gives them a new version, a life dates PUT not the person', async () => {
  const { resource, person, persons, goethe } = await setup();
  await run(resource, 'PUT', { ...GOETHE, body: { geboren: 1749, gestorben: 1832 } });
  const datesBefore = await current(resource);
  const personBefore = representationOf(await run(person, 'GET', GOETHE));
  const body = JSON.parse(bodyOf(personBefore, 'json')) as Record<string, unknown>;
  // The same person PUT back: life dates as they were, their version too.
  await run(person, 'PUT', { ...GOETHE, body });
  let dates = await current(resource);
  assert.equal(bodyOf(dates, 'json'), bodyOf(datesBefore, 'json'));
  assert.equal(dates.lastModified?.getTime(), datesBefore.lastModified?.getTime());
  // Renamed: the life dates' page shows the name, so it has a new version.
  await run(person, 'PUT', { ...GOETHE, body: { ...body, vorname: 'J. W.' } });
  dates = await current(resource);
  assert.equal((dates.model as LifeDates).geboren, 1749);
  assert.ok((dates.lastModified?.getTime() ?? 0) > (datesBefore.lastModified?.getTime() ?? 0));
  assert.notEqual(etagFor(dates, 'html'), etagFor(datesBefore, 'html'));
  // A life dates PUT leaves the person's version alone (the person shows no life dates).
  const personNow = await persons.byId(goethe.id);
  await run(resource, 'PUT', { ...GOETHE, body: { geboren: 1750, gestorben: 1832 } });
  assert.deepEqual(await persons.byId(goethe.id), personNow);
});
