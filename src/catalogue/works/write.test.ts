import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowOf } from '../../http/app/dispatch.ts';
import { parseXmlFields } from '../../http/body/index.ts';
import type { Work } from '../model.ts';
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
  statusOf,
} from '../../../test/kit/catalogue/write-support.ts';
import { workResource, worksResource } from './resource.ts';

async function setup() {
  const { persons, works, loans } = await memoryCatalogue();
  await persons.create({ vorname: 'Johann Wolfgang', nachname: 'von Goethe', slug: 'goethe' });
  await persons.create({ vorname: 'Friedrich', nachname: 'Schiller', slug: 'schiller' });
  return { works, loans, persons, one: workResource(works, persons), all: worksResource(works, persons) };
}

const at = (slug: string) => ({ query: `slug=${slug}`, path: `/werke/${slug}` });
const names = (rep: { model: unknown }) => (rep.model as Work).personen.map((p) => p.slug);

test('write methods are offered only with a writable store and persons to resolve', async () => {
  const { one, all } = await setup();
  assert.equal(allowOf(all), 'GET, HEAD, POST, OPTIONS');
  assert.equal(allowOf(one), 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
  const { works } = await memoryCatalogue();
  assert.equal(allowOf(workResource(works)), 'GET, HEAD, OPTIONS');
});

test('POST creates with persons by URL or slug: 201, Location, valid representation', async () => {
  const { all } = await setup();
  const body = {
    titel: 'Xenien',
    jahr: 1796,
    exemplare: 2,
    person: [{ name: 'ignored', url: 'https://library.example/personen/goethe' }, 'schiller'],
  };
  const result = await run(all, 'POST', { body });
  assert.equal(statusOf(result), 201);
  assert.ok(!(result instanceof Error) && result.type === 'representation');
  assert.equal(result.location, '/werke/xenien');
  const rep = representationOf(result);
  assert.deepEqual(names(rep), ['goethe', 'schiller']);
  assert.equal(jsonErrors('work', JSON.parse(bodyOf(rep, 'json'))), '');
  assert.equal(await xmlErrors('work', bodyOf(rep, 'xml').replace(/^<\?xml[^>]*>\n/, '')), '');
});

test('exemplare defaults to 1; every shape of person references is understood', async () => {
  const { all } = await setup();
  const xmlBody = parseXmlFields(
    '<werk><titel>Faust</titel><personen><person ref="https://library.example/personen/goethe.xml">G</person>' +
      '<person ref="https://library.example/person?slug=schiller"/></personen></werk>',
  );
  const rep = representationOf(await run(all, 'POST', { body: xmlBody }));
  assert.deepEqual(names(rep), ['goethe', 'schiller']);
  assert.equal((rep.model as Work).exemplare, 1);
  assert.equal((rep.model as Work).jahr, null);
  const form = { titel: 'Faust II', person: '/personen/schiller\r\ngoethe\n' };
  const second = representationOf(await run(all, 'POST', { body: form }));
  assert.deepEqual(names(second), ['schiller', 'goethe']);
  const empty = representationOf(
    await run(all, 'POST', { body: parseXmlFields('<werk><titel>X</titel><personen/></werk>') }),
  );
  assert.deepEqual(names(empty), []);
});

test('422 per field, nothing stored; 403 for members and anonymous clients', async (t) => {
  const { all, works } = await setup();
  const cases: [string, unknown, string[]][] = [
    ['empty', {}, ['titel']],
    ['mistyped', { titel: { a: 'b' }, jahr: '18o8', exemplare: 'drei' }, ['titel', 'jahr', 'exemplare']],
    ['negative copies', { titel: 'A', exemplare: -1 }, ['exemplare']],
    ['100,000 characters', { titel: 'x'.repeat(100_000) }, ['titel']],
    ['unknown person', { titel: 'A', person: ['niemand'] }, ['person']],
    ['foreign URL', { titel: 'A', person: 'https://evil.example/personen/goethe' }, ['person']],
    ['not a reference', { titel: 'A', person: [{ name: 'x' }] }, ['person']],
    ['too many', { titel: 'A', person: Array.from({ length: 51 }, () => 'goethe') }, ['person']],
  ];
  for (const [name, body, fields] of cases) {
    await t.test(name, async () => assert.deepEqual(fieldsOf(await run(all, 'POST', { body })), fields));
  }
  for (const user of [MEMBER, null])
    assert.equal(statusOf(await run(all, 'POST', { body: { titel: 'A' }, user })), 403);
  assert.equal((await works.list({ limit: 10 })).items.length, 0);
});

test('the HTML form comes back with 422 and the entered values', async () => {
  const { all } = await setup();
  const result = await run(all, 'POST', {
    format: 'html',
    body: { titel: '', person: 'goethe\nniemand', jahr: 'x' },
  });
  assert.equal(statusOf(result), 422);
  const page = squash(bodyOf(representationOf(result), 'html'));
  assert.match(
    page,
    /<textarea id="neu-person" name="person" aria-invalid="true" aria-describedby="neu-person-hinweis neu-person-fehler" rows="3">goethe\nniemand<\/textarea>|<textarea id="neu-person"[^>]*>goethe niemand<\/textarea>/,
  );
  assert.match(page, /Keine Person dieses Katalogs: niemand/);
  assert.match(page, /id="neu-titel-fehler"/);
});

test('PUT: 200 replaced at the URL given (a new title does not move it), 201 at a free slug, 422 never partial', async () => {
  const { all, one, works } = await setup();
  representationOf(await run(all, 'POST', { body: { titel: 'Faust', person: 'goethe' } }));
  const renamed = representationOf(
    await run(one, 'PUT', { ...at('faust'), body: { titel: 'Faust I', exemplare: 0 } }),
  );
  assert.equal(renamed.canonicalPath, '/werke/faust');
  assert.deepEqual(names(renamed), [], 'persons left out are unlinked');
  assert.equal(jsonErrors('work', JSON.parse(bodyOf(renamed, 'json'))), '');
  assert.equal(await works.bySlug('faust-i'), null, 'no new URL appears');
  assert.deepEqual(fieldsOf(await run(one, 'PUT', { ...at('faust'), body: { jahr: 1808 } })), ['titel']);
  const still = await works.bySlug('faust');
  assert.ok(still && 'found' in still && still.found.jahr === null && still.found.exemplare === 0);
  assert.equal(statusOf(await run(one, 'PUT', { ...at('urfaust'), body: { titel: 'Urfaust' } })), 201);
  assert.equal(
    statusOf(await run(one, 'PUT', { ...at('faust'), format: 'html', body: { titel: 'Faust I' } })),
    303,
  );
});

test('two clients PUT with the same ETag: the second gets 412, the first client wins', async () => {
  const { all, one, works } = await setup();
  const rep = representationOf(await run(all, 'POST', { body: { titel: 'Faust', exemplare: 3 } }));
  const etag = etagFor(rep, 'json');
  const [a, b] = await Promise.all([
    run(one, 'PUT', { ...at('faust'), ifMatch: etag, body: { titel: 'Faust', exemplare: 4 } }),
    run(one, 'PUT', { ...at('faust'), ifMatch: etag, body: { titel: 'Faust', exemplare: 5 } }),
  ]);
  assert.deepEqual([statusOf(a), statusOf(b)], [200, 412]);
  const stored = await works.bySlug('faust');
  assert.ok(stored && 'found' in stored && stored.found.exemplare === 4);
});

test('DELETE: 204 then 410; form → 303; staff see the forms, others do not', async () => {
  const { all, one } = await setup();
  await run(all, 'POST', { body: { titel: 'Faust' } });
  await run(all, 'POST', { body: { titel: 'Egmont' } });
  const page = squash(
    bodyOf(representationOf(await run(one, 'GET', { ...at('faust'), format: 'html' })), 'html'),
  );
  assert.match(page, /name="_method" value="PUT"/);
  assert.match(page, /name="_method" value="DELETE"/);
  const list = squash(bodyOf(representationOf(await run(all, 'GET', { format: 'html' })), 'html'));
  assert.match(list, /<summary>Neues Werk<\/summary>/);
  const anon = bodyOf(representationOf(await run(one, 'GET', { ...at('faust'), user: null })), 'html', {
    user: null,
  });
  assert.doesNotMatch(anon, /<form class="(write|delete)"/);
  assert.equal(statusOf(await run(one, 'DELETE', at('faust'))), 204);
  assert.equal(statusOf(await run(one, 'GET', at('faust'))), 410);
  const form = await run(one, 'DELETE', { ...at('egmont'), format: 'html', body: { _method: 'DELETE' } });
  assert.deepEqual(form, { type: 'redirect', status: 303, path: '/werke' });
});

test('DELETE of a work with a copy on loan: 409 SHELFMARK_COPY_ON_LOAN, nothing deleted', async () => {
  const { all, one, loans, persons } = await setup();
  await run(all, 'POST', { body: { titel: 'Faust', exemplare: 2 } });
  const goethe = await persons.bySlug('goethe');
  assert.ok(goethe && 'found' in goethe);
  assert.ok((await loans.borrow(goethe.found.id, { slug: 'faust' })).ok);
  const refused = await run(one, 'DELETE', at('faust'));
  assert.equal(statusOf(refused), 409);
  assert.ok(refused instanceof Error && 'code' in refused && refused.code === 'SHELFMARK_COPY_ON_LOAN');
  assert.equal(statusOf(await run(one, 'GET', at('faust'))), 200);
  // Fewer exemplare than copies not free: the same 409.
  const fewer = await run(one, 'PUT', { ...at('faust'), body: { titel: 'Faust', exemplare: 0 } });
  assert.equal(statusOf(fewer), 409);
});

test('a write looks up only the persons the work does not show already; one deleted meanwhile is refused', async () => {
  const { persons, works, all } = await setup();
  const asked: string[] = [];
  const counted = new Proxy(persons, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop !== 'idOf' || typeof value !== 'function') return value;
      return (ref: { slug: string } | { id: number }) => {
        asked.push('slug' in ref ? ref.slug : `#${ref.id}`);
        return (value as typeof persons.idOf).call(target, ref);
      };
    },
  });
  const one = workResource(works, counted);
  representationOf(await run(all, 'POST', { body: { titel: 'Xenien', person: 'goethe' } }));
  const both = representationOf(
    await run(one, 'PUT', {
      ...at('xenien'),
      body: { titel: 'Xenien', person: ['https://library.example/personen/goethe', 'schiller'] },
    }),
  );
  assert.deepEqual(names(both), ['goethe', 'schiller']);
  assert.deepEqual(asked, ['schiller'], 'Goethe, whom the work shows, is not looked up again');
  asked.length = 0;
  representationOf(
    await run(one, 'PUT', { ...at('xenien'), body: { titel: 'Xenien 2', person: ['schiller', 'goethe'] } }),
  );
  assert.deepEqual(asked, [], 'both shown: no lookup');
});
