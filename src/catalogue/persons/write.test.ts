import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowOf } from '../../http/app/dispatch.ts';
import type { Person } from '../model.ts';
import { squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { memoryCatalogue } from '../../../test/kit/catalogue/memory.ts';
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
import { personResource, personsResource } from './resource.ts';

const GOETHE = { vorname: 'Johann Wolfgang', nachname: 'von Goethe' };

async function setup() {
  const { persons, works } = await memoryCatalogue();
  return { store: persons, works, one: personResource(persons), all: personsResource(persons) };
}

const at = (slug: string) => ({ query: `slug=${slug}`, path: `/personen/${slug}` });

test('OPTIONS/405 list the write methods when the store can write', async () => {
  const { one, all } = await setup();
  assert.equal(allowOf(all), 'GET, HEAD, POST, OPTIONS');
  assert.equal(allowOf(one), 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
});

test('POST creates: 201, Location, the representation valid against both schemas', async () => {
  const { all, store } = await setup();
  const result = await run(all, 'POST', { body: GOETHE });
  assert.equal(statusOf(result), 201);
  assert.ok(!(result instanceof Error) && result.type === 'representation');
  assert.equal(result.location, '/personen/johann-wolfgang-von-goethe');
  const rep = representationOf(result);
  assert.equal(rep.canonicalPath, '/personen/johann-wolfgang-von-goethe');
  assert.equal(jsonErrors('person', JSON.parse(bodyOf(rep, 'json'))), '');
  assert.equal(await xmlErrors('person', bodyOf(rep, 'xml').replace(/^<\?xml[^>]*>\n/, '')), '');
  const stored = await store.bySlug('johann-wolfgang-von-goethe');
  assert.ok(stored && 'found' in stored && stored.found.vorname === 'Johann Wolfgang');
});

test('an HTML form POST gets 303 to the new person', async () => {
  const { all } = await setup();
  const body = { vorname: 'Friedrich', nachname: 'Schiller', _csrf: 't' };
  assert.deepEqual(await run(all, 'POST', { body, format: 'html' }), {
    type: 'redirect',
    status: 303,
    path: '/personen/friedrich-schiller',
  });
});

test('members and anonymous clients get 403 and nothing is stored', async () => {
  const { all, one, store } = await setup();
  for (const user of [MEMBER, null]) {
    assert.equal(statusOf(await run(all, 'POST', { body: GOETHE, user })), 403);
  }
  await store.create({ vorname: 'A', nachname: 'B' });
  for (const user of [MEMBER, null]) {
    assert.equal(statusOf(await run(one, 'PUT', { ...at('a-b'), body: GOETHE, user })), 403);
    assert.equal(statusOf(await run(one, 'DELETE', { ...at('a-b'), user })), 403);
  }
  // Staff see every person, also one without works (ADR 0062).
  assert.equal((await store.list({ limit: 10 }, STAFF)).items.length, 1);
});

test('422 names every wrong field; nothing is stored', async (t) => {
  const { all, store } = await setup();
  const long = 'x'.repeat(100_000);
  const cases: [string, unknown, string[]][] = [
    ['empty body', undefined, ['vorname', 'nachname']],
    ['missing nachname', { vorname: 'A' }, ['nachname']],
    ['blank names', { vorname: '  ', nachname: '' }, ['vorname', 'nachname']],
    ['mistyped', { vorname: 42, nachname: ['a', 'b'], image: 7 }, ['vorname', 'nachname', 'image']],
    [
      '100,000 characters',
      { vorname: long, nachname: long, image: `https://x.example/${long}` },
      ['vorname', 'nachname', 'image'],
    ],
    ['control characters', { vorname: 'A\nB', nachname: 'C\u0000' }, ['vorname', 'nachname']],
    ['bad image', { ...GOETHE, image: 'javascript:alert(1)' }, ['image']],
    ['protocol-relative image', { ...GOETHE, image: '//evil.example/x.png' }, ['image']],
    ['not an object', ['vorname'], ['']],
  ];
  for (const [name, body, fields] of cases) {
    await t.test(name, async () => assert.deepEqual(fieldsOf(await run(all, 'POST', { body })), fields));
  }
  assert.equal((await store.list({ limit: 10 })).items.length, 0);
});

test('images: own absolute URLs become paths, the default image becomes none, others stay', async () => {
  const { all } = await setup();
  const image = async (value: string) => {
    const rep = representationOf(await run(all, 'POST', { body: { ...GOETHE, image: value } }));
    return (rep.model as Person).image;
  };
  assert.equal(await image('https://library.example/bilder/goethe.svg'), '/bilder/goethe.svg');
  assert.equal(await image('https://library.example/bilder/standard.svg'), null);
  assert.equal(await image('/bilder/x.svg'), '/bilder/x.svg');
  assert.equal(await image('https://images.example/g.jpg'), 'https://images.example/g.jpg');
});

test('the HTML form comes back with 422, its values and linked messages', async () => {
  const { all } = await setup();
  const body = { vorname: '<b>Ada</b>', nachname: '', image: 'javascript:zwölf' };
  const result = await run(all, 'POST', { body, format: 'html' });
  assert.equal(statusOf(result), 422);
  const page = squash(bodyOf(representationOf(result), 'html'));
  assert.match(page, /value="&lt;b&gt;Ada&lt;\/b&gt;"/);
  assert.match(page, /value="javascript:zwölf"/);
  assert.match(
    page,
    /id="neu-nachname" name="nachname" required maxlength="200" aria-invalid="true" aria-describedby="neu-nachname-fehler"/,
  );
  assert.match(page, /<p class="field-error" id="neu-nachname-fehler">Bitte ausfüllen.<\/p>/);
  assert.match(page, /<a href="#neu-image">Bild \(URL\)<\/a>: Bitte eine http\(s\)-Adresse/);
  const en = squash(
    bodyOf(representationOf(await run(all, 'POST', { body, format: 'html', lang: 'en' })), 'html', {
      lang: 'en',
    }),
  );
  assert.match(en, /Please fill this in./);
});

async function withGoethe() {
  const s = await setup();
  const created = representationOf(await run(s.all, 'POST', { body: GOETHE }));
  return { ...s, slug: (created.model as Person).slug, rep: created };
}

test('PUT replaces (200, valid representation); a missing field is 422, never a partial update', async () => {
  const { one, slug, store } = await withGoethe();
  const body = { ...GOETHE, image: 'https://images.example/g.jpg' };
  const rep = representationOf(await run(one, 'PUT', { ...at(slug), body }));
  assert.equal((rep.model as Person).image, 'https://images.example/g.jpg');
  assert.equal(jsonErrors('person', JSON.parse(bodyOf(rep, 'json'))), '');
  assert.deepEqual(fieldsOf(await run(one, 'PUT', { ...at(slug), body: { vorname: 'Nur' } })), ['nachname']);
  const stored = await store.bySlug(slug);
  assert.ok(stored && 'found' in stored);
  assert.equal(stored.found.vorname, 'Johann Wolfgang');
  // Optional fields left out are cleared: PUT is the whole resource.
  const cleared = representationOf(await run(one, 'PUT', { ...at(slug), body: GOETHE }));
  assert.equal((cleared.model as Person).image, null);
});

test('PUT stores the person at the URL given: a new name does not move it', async () => {
  const { one, slug } = await withGoethe();
  const rep = representationOf(await run(one, 'PUT', { ...at(slug), body: { ...GOETHE, vorname: 'J. W.' } }));
  assert.equal(rep.canonicalPath, `/personen/${slug}`);
  const again = representationOf(await run(one, 'GET', at(slug)));
  assert.equal((again.model as Person).vorname, 'J. W.');
  assert.equal(statusOf(await run(one, 'GET', at('j-w-von-goethe'))), 404, 'no new URL appears');
});

test('PUT at a free slug creates it there (201); an impossible slug is 404', async () => {
  const { one } = await setup();
  const result = await run(one, 'PUT', { ...at('goethe'), body: GOETHE });
  assert.equal(statusOf(result), 201);
  assert.ok(!(result instanceof Error) && result.type === 'representation');
  assert.equal(result.location, '/personen/goethe');
  for (const bad of ['Goethe', 'a--b', 'x-', 'a'.repeat(101)]) {
    assert.equal(statusOf(await run(one, 'PUT', { ...at(bad), body: GOETHE })), 404, bad);
  }
  assert.equal(statusOf(await run(one, 'PUT', { query: 'id=99', body: GOETHE })), 404);
});

test('preconditions: stale If-Match or _version → 412, none when required → 428; current ones pass', async () => {
  const { one, slug, rep, store } = await withGoethe();
  const image = (n: number) => ({ ...GOETHE, image: `https://images.example/${n}.jpg` });
  const put = (opts: object) => run(one, 'PUT', { ...at(slug), body: image(1), ...opts });
  assert.equal(statusOf(await put({ ifMatch: '"stale"' })), 412);
  assert.equal(statusOf(await put({ body: { ...image(1), _version: 'stale' } })), 412);
  assert.equal(statusOf(await put({ requirePreconditions: true })), 428);
  assert.equal(statusOf(await run(one, 'DELETE', { ...at(slug), requirePreconditions: true })), 428);
  const imageNow = async () => {
    const found = await store.bySlug(slug);
    assert.ok(found && 'found' in found);
    return found.found.image;
  };
  assert.equal(await imageNow(), null, 'nothing written');
  // The XML ETag of the current state passes — once; a second client with it gets 412.
  const etag = etagFor(rep, 'xml');
  assert.equal(statusOf(await put({ ifMatch: etag, requirePreconditions: true })), 200);
  assert.equal(statusOf(await run(one, 'PUT', { ...at(slug), body: image(2), ifMatch: etag })), 412);
  assert.equal(await imageNow(), 'https://images.example/1.jpg', 'the first client wins');
  // A form's _version is the JSON ETag without quotes.
  const current = await store.bySlug(slug);
  assert.ok(current && 'found' in current);
  const now = representationOf(await run(one, 'GET', at(slug)));
  const version = etagFor(now, 'json').slice(1, -1);
  assert.equal(statusOf(await put({ body: { ...image(3), _version: version }, format: 'html' })), 303);
  assert.equal(await imageNow(), 'https://images.example/3.jpg');
});

test('DELETE: 204, then 410; an HTML form gets 303 to the collection', async () => {
  const { one, all, slug } = await withGoethe();
  assert.equal(statusOf(await run(one, 'DELETE', at(slug))), 204);
  assert.equal(statusOf(await run(one, 'GET', at(slug))), 410);
  assert.equal(statusOf(await run(one, 'DELETE', at(slug))), 410);
  assert.equal(statusOf(await run(one, 'PUT', { ...at(slug), body: GOETHE })), 410);
  assert.equal(statusOf(await run(one, 'DELETE', at('niemand'))), 404);
  const other = representationOf(await run(all, 'POST', { body: { vorname: 'F', nachname: 'S' } }));
  const form = { _method: 'DELETE', _csrf: 't' };
  const result = await run(one, 'DELETE', {
    ...at((other.model as Person).slug),
    body: form,
    format: 'html',
  });
  assert.deepEqual(result, { type: 'redirect', status: 303, path: '/personen' });
});

test('staff see the forms: new on the collection, edit and delete with _method, _csrf, _version', async () => {
  const { one, all, slug, rep, works } = await withGoethe();
  const list = squash(bodyOf(representationOf(await run(all, 'GET', { format: 'html' })), 'html'));
  assert.match(list, /<summary>Neue Person<\/summary>/);
  assert.match(list, /<form class="write" method="post" action="\/personen" novalidate>/);
  const page = squash(
    bodyOf(representationOf(await run(one, 'GET', { ...at(slug), format: 'html' })), 'html'),
  );
  const version = etagFor(rep, 'json').slice(1, -1);
  assert.match(
    page,
    /<input type="hidden" name="_method" value="PUT"><input type="hidden" name="_csrf" value="fake-csrf-token"><input type="hidden" name="_version" value="([^"]+)">/,
  );
  assert.ok(page.includes(`name="_version" value="${version}"`));
  assert.match(page, /name="_method" value="DELETE"/);
  assert.match(
    page,
    /id="bearbeiten-vorname" name="vorname" required maxlength="200" type="text" value="Johann Wolfgang"/,
  );
  // An author, so that members and anonymous clients see his page at all (ADR 0062).
  await works.create({ titel: 'Faust', personIds: [(rep.model as Person).id] });
  for (const user of [MEMBER, null]) {
    const anon = bodyOf(
      representationOf(await run(one, 'GET', { ...at(slug), format: 'html', user })),
      'html',
      { user },
    );
    assert.doesNotMatch(anon, /<form class="(write|delete)"/);
  }
});
