import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Outcome } from '../../http/resource/types.ts';
import type { Work } from '../model.ts';
import { HttpError } from '../shared/index.ts';
import {
  fakeContext,
  fakeWorkStore,
  faust,
  render,
  renderText,
  squash,
} from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { workResource, worksResource } from './resource.ts';

const store = fakeWorkStore(
  [faust, { ...faust, id: 11, slug: 'ohne-jahr', titel: 'Ohne Jahr', jahr: null, personen: [] }],
  {
    moved: { 'faust-1': 'faust' },
    gone: ['weg'],
  },
);
const get = (query: string) => workResource(store).methods.GET!(fakeContext({ query }));

function representation(outcome: Outcome) {
  assert.equal(outcome.type, 'representation');
  return outcome.representation;
}

test('/werk?slug= and ?id= answer the work at its readable canonical path', async () => {
  for (const q of ['slug=faust', 'id=10']) {
    const r = representation(await get(q));
    assert.equal((r.model as Work).titel, 'Faust');
    assert.equal(r.canonicalPath, '/werke/faust');
    assert.equal(r.schema, 'work');
  }
});

test('moved → 301, gone → 410, unknown → 404', async () => {
  assert.deepEqual(await get('slug=faust-1'), { type: 'redirect', status: 301, path: '/werke/faust' });
  const statusOf = (q: string) =>
    get(q).then(
      () => 0,
      (e: unknown) => (e instanceof HttpError ? e.status : -1),
    );
  assert.equal(await statusOf('slug=weg'), 410);
  assert.equal(await statusOf('slug=nichts'), 404);
  assert.equal(await statusOf(''), 404);
});

test('work XML, JSON and HTML show title, year, persons, copies, available', async () => {
  const outcome = await get('slug=faust');
  const xml = renderText(outcome, 'xml');
  assert.equal(
    xml,
    `<werk>
  <titel>Faust</titel>
  <jahr>1808</jahr>
  <personen>
    <person ref="https://library.example/personen/goethe">Johann Wolfgang von Goethe</person>
  </personen>
  <exemplare>3</exemplare>
  <verfuegbar>2</verfuegbar>
</werk>`,
  );
  assert.equal(await xmlErrors('work', xml), '');
  const json = render(outcome, 'json');
  assert.equal(
    JSON.stringify(json),
    '{"titel":"Faust","jahr":1808,"person":[{"name":"Johann Wolfgang von Goethe","url":"https://library.example/personen/goethe"}],"exemplare":3,"verfuegbar":2}',
  );
  assert.equal(jsonErrors('work', json), '');
  const html = squash(renderText(outcome, 'html'));
  assert.match(html, /<h1>Faust<\/h1>/);
  assert.match(html, /<a href="\/personen\/goethe">Johann Wolfgang von Goethe<\/a>/);
  assert.match(html, /<dt>Exemplare<\/dt> ?<dd>3<\/dd>/);
  assert.match(html, /<dt>Verfügbar<\/dt> ?<dd> ?<span class="availability">2<\/span>/);
});

test('a work without year or persons validates too', async () => {
  const outcome = await get('slug=ohne-jahr');
  assert.doesNotMatch(renderText(outcome, 'xml'), /<jahr>/);
  assert.equal(await xmlErrors('work', renderText(outcome, 'xml')), '');
  assert.equal(jsonErrors('work', render(outcome, 'json')), '');
});

test('/werke lists, searches and pages; outputs validate', async () => {
  const works = Array.from({ length: 3 }, (_, i): Work => ({
    ...faust,
    id: i + 1,
    slug: `w${i}`,
    titel: `Werk ${i}`,
  }));
  const s = fakeWorkStore(works);
  const outcome = await worksResource(s).methods.GET!(fakeContext({ query: 'q=werk&anzahl=2' }));
  const r = representation(outcome);
  assert.equal(r.canonicalPath, '/werke?q=werk&anzahl=2');
  assert.deepEqual(r.links, [{ rel: 'next', path: '/werke?q=werk&nach=2&anzahl=2' }]);
  assert.equal(s.calls.at(-1)?.q, 'werk');
  const xml = renderText(outcome, 'xml');
  assert.ok(
    xml.startsWith('<werke>\n  <suche>werk</suche>\n  <werk ref="https://library.example/werke/w0">'),
  );
  assert.equal(await xmlErrors('works', xml), '');
  const json = render(outcome, 'json') as { werk: unknown[]; naechste: string };
  assert.equal(json.werk.length, 2);
  assert.equal(json.naechste, 'https://library.example/werke?q=werk&nach=2&anzahl=2');
  assert.equal(jsonErrors('works', json), '');
  const html = squash(renderText(outcome, 'html'));
  assert.match(html, /<a rel="next" href="\/werke\?q=werk&amp;nach=2&amp;anzahl=2">/);
  assert.match(html, /<link rel="next" href="\/werke\?q=werk&amp;nach=2&amp;anzahl=2">/);
  assert.match(
    html,
    /<link rel="alternate" type="application\/xml" href="\/werke.xml\?q=werk&amp;anzahl=2">/,
  );
  assert.match(html, /<input id="suche-kopf" type="search" name="q" value="werk"/);
});

test('an empty result says so and still validates', async () => {
  const outcome = await worksResource(store).methods.GET!(fakeContext({ query: 'q=zzz' }));
  assert.match(squash(renderText(outcome, 'html')), /Nichts gefunden/);
  assert.equal(await xmlErrors('works', renderText(outcome, 'xml')), '');
  assert.equal(jsonErrors('works', render(outcome, 'json')), '');
});
