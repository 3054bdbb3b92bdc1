import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Outcome, RequestContext } from '../../http/resource/types.ts';
import type { Person } from '../model.ts';
import { HttpError } from '../shared/index.ts';
import {
  fakeContext,
  fakePersonStore,
  goethe,
  render,
  renderText,
  squash,
} from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { personResource, personsResource } from './resource.ts';
import type { PersonsModel } from './persons-view.ts';

const store = fakePersonStore([goethe], { moved: { 'j-w-goethe': 'goethe' }, gone: ['weg'] });
const get = (ctx: RequestContext) => personResource(store).methods.GET!(ctx);

function representation(outcome: Outcome) {
  assert.equal(outcome.type, 'representation');
  return outcome.representation;
}

test('/person?slug= and ?id= find the person, canonical path is the readable one', async () => {
  for (const query of ['slug=goethe', 'id=1']) {
    const r = representation(await get(fakeContext({ query })));
    assert.equal((r.model as Person).slug, 'goethe');
    assert.equal(r.canonicalPath, '/personen/goethe');
    assert.equal(r.schema, 'person');
    assert.deepEqual(r.lastModified, goethe.updatedAt);
  }
});

test('a moved slug answers 301 to the new canonical path', async () => {
  assert.deepEqual(await get(fakeContext({ query: 'slug=j-w-goethe' })), {
    type: 'redirect',
    status: 301,
    path: '/personen/goethe',
  });
});

async function status(query: string): Promise<number> {
  const err = await get(fakeContext({ query })).then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof HttpError);
  return err.status;
}

test('deleted → 410; unknown, missing or malformed parameters → 404', async () => {
  assert.equal(await status('slug=weg'), 410);
  for (const q of ['slug=niemand', 'id=99', '', 'id=abc', 'id=0', 'slug=Goethe', 'slug=a/b', 'id=1e3']) {
    assert.equal(await status(q), 404, q);
  }
});

const persons = Array.from({ length: 45 }, (_, i): Person => ({
  ...goethe,
  id: i + 1,
  slug: `p${i + 1}`,
  nachname: `Name ${i + 1}`,
}));

test('/personen pages with cursors, rel links in header and body, capped size', async () => {
  const s = fakePersonStore(persons);
  const list = (query: string) => personsResource(s).methods.GET!(fakeContext({ query }));

  const first = representation(await list(''));
  const m = first.model as PersonsModel;
  assert.equal(m.page.items.length, 20);
  assert.equal(first.canonicalPath, '/personen');
  assert.deepEqual(first.links, [{ rel: 'next', path: '/personen?nach=20' }]);
  assert.equal(first.schema, 'persons');

  const second = representation(await list('nach=20&anzahl=10'));
  assert.equal(second.canonicalPath, '/personen?nach=20&anzahl=10');
  assert.deepEqual(second.links, [
    { rel: 'prev', path: '/personen?vor=20&anzahl=10' },
    { rel: 'next', path: '/personen?nach=30&anzahl=10' },
  ]);
  const page2 = await list('nach=20&anzahl=10');
  const xml = renderText(page2, 'xml');
  assert.match(xml, /<vorige ref="https:\/\/library.example\/personen\?vor=20&amp;anzahl=10"\/>/);
  assert.match(xml, /<naechste ref="https:\/\/library.example\/personen\?nach=30&amp;anzahl=10"\/>/);
  assert.equal(await xmlErrors('persons', xml), '');
  const json = render(page2, 'json') as Record<string, unknown>;
  assert.equal(json.naechste, 'https://library.example/personen?nach=30&anzahl=10');
  assert.equal(jsonErrors('persons', json), '');

  await list('anzahl=5000');
  assert.equal(s.calls.at(-1)?.limit, 100);
  await list('anzahl=-3');
  assert.equal(s.calls.at(-1)?.limit, 20);
});

test('/personen?q= searches and keeps the word in canonical path and body', async () => {
  const outcome = await personsResource(store).methods.GET!(fakeContext({ query: 'q=goethe' }));
  assert.equal(representation(outcome).canonicalPath, '/personen?q=goethe');
  const json = render(outcome, 'json');
  assert.deepEqual(json, {
    suche: 'goethe',
    person: [
      {
        vorname: 'Johann Wolfgang',
        nachname: 'von Goethe',
        url: 'https://library.example/personen/goethe',
        werkAnzahl: 1,
      },
    ],
  });
  assert.equal(jsonErrors('persons', json), '');
  const html = squash(renderText(outcome, 'html'));
  assert.match(html, /<a href="\/personen\/goethe">Johann Wolfgang von Goethe<\/a>/);
  assert.match(html, /Suchergebnisse für „goethe“/);
});
