// Facets of the works list (ADR 0094) on both engines: every filter and combination gives the
// rows a brute-force reading of the tables gives, in list order, page by page both ways; the
// counts are those of a brute-force count over the same rows; searches, relevance order and
// facets combine.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { DB } from '../tables.ts';
import { FACET_NAMES, type WorkFacetFilters, type WorkFacets, type WorkPageRequest } from '../model.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { fakeContext, render, renderText, squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { HttpError } from '../shared/index.ts';
import { worksResource } from './resource.ts';
import { SEARCH_COUNT_CAP } from '../shared/index.ts';
import { countFacets, FACET_SAMPLE } from './facets.ts';
import { MAX_FACET_VALUES } from './facet-query.ts';

interface Truth {
  readonly id: number;
  readonly jahr: number | null;
  readonly persons: readonly { id: number; slug: string }[];
  readonly free: boolean;
  readonly types: ReadonlySet<string>;
}

/** Every live work as the tables say, without the store's code. */
async function truth(database: TestDatabase<DB>): Promise<Map<number, Truth>> {
  const db = database.db;
  const works = await db.selectFrom('works').select(['id', 'jahr']).where('deleted_at', 'is', null).execute();
  const links = await db
    .selectFrom('person_work')
    .innerJoin('persons', 'persons.id', 'person_work.person_id')
    .select(['person_work.work_id', 'persons.id', 'persons.slug'])
    .where('persons.deleted_at', 'is', null)
    .execute();
  const copies = await db
    .selectFrom('copies')
    .select(['id', 'work_id', 'item_type', 'missing_since'])
    .where('deleted_at', 'is', null)
    .execute();
  const lent = new Set(
    (await db.selectFrom('loans').select('copy_id').where('returned_at', 'is', null).execute()).map(
      (r) => r.copy_id,
    ),
  );
  const kept = new Set(
    (await db.selectFrom('holds').select('copy_id').where('ended_at', 'is', null).execute()).map(
      (r) => r.copy_id,
    ),
  );
  return new Map(
    works.map((w) => {
      const own = copies.filter((c) => c.work_id === w.id);
      return [
        w.id,
        {
          id: w.id,
          jahr: w.jahr,
          persons: links.filter((l) => l.work_id === w.id).map((l) => ({ id: l.id, slug: l.slug })),
          free: own.some((c) => c.missing_since === null && !lent.has(c.id) && !kept.has(c.id)),
          types: new Set(own.map((c) => c.item_type)),
        },
      ];
    }),
  );
}

const floorDecade = (jahr: number) => jahr - (((jahr % 10) + 10) % 10);

/** Within a facet any value, between facets all (ADR 0099). */
function keeps(w: Truth, f: WorkFacetFilters): boolean {
  return (
    (f.autor === undefined || w.persons.some((p) => f.autor!.includes(p.slug))) &&
    (f.dekade === undefined || (w.jahr !== null && f.dekade.includes(floorDecade(w.jahr)))) &&
    (f.verfuegbar === undefined || f.verfuegbar.includes(w.free ? 'ja' : 'nein')) &&
    (f.medientyp === undefined || f.medientyp.some((t) => w.types.has(t)))
  );
}

/** The facet counts over `rows`, counted one by one. */
function bruteFacets(rows: readonly Truth[]) {
  const tally = <K>(keys: K[]) => {
    const m = new Map<K, number>();
    for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  return {
    autor: tally(rows.flatMap((w) => w.persons.map((p) => p.slug))),
    dekade: tally(rows.flatMap((w) => (w.jahr === null ? [] : [floorDecade(w.jahr)]))),
    verfuegbar: tally(rows.map((w) => (w.free ? 'ja' : 'nein'))),
    medientyp: tally(rows.flatMap((w) => [...w.types])),
  };
}

function asMaps(f: WorkFacets) {
  return {
    autor: new Map(f.autor.map((v) => [v.slug, v.count])),
    dekade: new Map(f.dekade.map((v) => [v.value, v.count])),
    verfuegbar: new Map(f.verfuegbar.map((v) => [v.value as string, v.count])),
    medientyp: new Map(f.medientyp.map((v) => [v.value, v.count])),
  };
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`works facets on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let slugs: string[] = [];

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      const persons = [];
      for (const [vorname, nachname] of [
        ['Anna', 'Arndt'],
        ['Bruno', 'Berg'],
        ['Clara', 'Christ'],
        ['Dora', 'Dahl'],
        ['Emil', 'Eck'],
      ])
        persons.push(await stores.persons.create({ vorname: vorname!, nachname: nachname! }));
      slugs = persons.map((p) => p.slug);
      const readers = [];
      for (let i = 0; i < 4; i++)
        readers.push(await stores.persons.create({ vorname: `Leser${i}`, nachname: 'Leser' }));
      for (let i = 0; i < 60; i++) {
        const jahr = i % 9 === 0 ? null : i % 11 === 0 ? -5 - i : 1890 + ((i * 7) % 60);
        const authors = [persons[i % 5]!.id, ...(i % 4 === 0 ? [persons[(i + 2) % 5]!.id] : [])];
        const work = await stores.works.create({
          titel: `${i % 3 === 0 ? 'Der Garten' : 'Das Buch'} ${String(i).padStart(2, '0')}`,
          jahr,
          exemplare: i % 4,
          personIds: authors,
        });
        // Types: some DVDs, some reference copies (the first copy of the work).
        const type = i % 3 === 1 ? 'dvd' : i % 5 === 2 ? 'praesenz' : undefined;
        if (type)
          await sql`update copies set item_type = ${type} where work_id = ${work.id} and nummer = 1`.execute(
            database.db,
          );
        // Every copy of some single-copy works lent (all lent), a copy missing of others.
        if (i % 4 === 1 && i % 8 === 1 && type !== 'praesenz')
          assert.ok((await stores.loans.borrow(readers[i % 4]!.id, { id: work.id })).ok);
        if (i % 4 === 2 && i % 6 === 2)
          await sql`update copies set missing_since = '2026-01-01T00:00:00.000Z' where work_id = ${work.id}`.execute(
            database.db,
          );
        if (i % 13 === 5) assert.ok(await stores.works.delete(work.id));
      }
    });
    after(() => database?.dispose());

    /** Every page forward with `limit`, then backward from the last; the ids both ways, the first page's facets. */
    async function walk(request: Omit<WorkPageRequest, 'limit'>, limit: number) {
      const ids: number[] = [];
      let after: string | undefined;
      let facets: WorkFacets | undefined;
      for (let n = 0; n < 200; n++) {
        const page = await stores.works.list({ ...request, limit, after });
        facets ??= page.facets;
        ids.push(...page.items.map((w) => w.id));
        if (page.next === undefined) break;
        after = page.next;
      }
      // Backwards from the last page: the same rows in reverse.
      const back: number[] = [];
      const lastPage = await stores.works.list({ ...request, limit, after });
      back.unshift(...lastPage.items.map((w) => w.id));
      let before = lastPage.prev;
      while (before !== undefined) {
        const page = await stores.works.list({ ...request, limit, before });
        back.unshift(...page.items.map((w) => w.id));
        before = page.prev;
      }
      return { ids, back, facets: facets! };
    }

    const FILTERS = (): WorkFacetFilters[] => [
      {},
      { autor: [slugs[0]!] },
      { autor: [slugs[3]!] },
      { autor: ['nobody-of-that-name'] },
      { dekade: [1900] },
      { dekade: [1940] },
      { dekade: [-20] },
      { verfuegbar: ['ja'] },
      { verfuegbar: ['nein'] },
      { medientyp: ['dvd'] },
      { medientyp: ['praesenz'] },
      { medientyp: ['buch'] },
      { autor: [slugs[1]!], verfuegbar: ['ja'] },
      { dekade: [1910], medientyp: ['buch'], verfuegbar: ['ja'] },
      { autor: [slugs[2]!], dekade: [1920], verfuegbar: ['nein'], medientyp: ['dvd'] },
      // Several values of one facet (OR), alone and beside others (ADR 0099).
      { autor: [slugs[0]!, slugs[3]!].sort() },
      { autor: ['nobody-of-that-name', slugs[4]!].sort() },
      { dekade: [-20, 1900, 1940] },
      { verfuegbar: ['ja', 'nein'] },
      { medientyp: ['dvd', 'praesenz'] },
      { autor: [slugs[1]!, slugs[2]!].sort(), dekade: [1900, 1910, 1920], verfuegbar: ['ja'] },
      { dekade: [1890, 1930], medientyp: ['buch', 'dvd'], verfuegbar: ['nein', 'ja'] },
    ];

    for (const q of [undefined, 'garten', 'buch', 'der garten', 'zzzz']) {
      test(`filters and counts match a brute-force reading (q=${q ?? ''})`, async () => {
        const rows = await truth(database);
        // The search's own rows (pinned by search-order.test.ts), in list order.
        const searched = (await walk({ ...(q && { q }) }, 50)).ids;
        for (const facets of FILTERS()) {
          const expected = searched.filter((id) => keeps(rows.get(id)!, facets));
          for (const limit of [4, 100]) {
            const got = await walk({ ...(q && { q }), facets }, limit);
            assert.deepEqual(got.ids, expected, `q=${q} ${JSON.stringify(facets)} limit ${limit}`);
            assert.deepEqual(got.back, expected, `backwards: q=${q} ${JSON.stringify(facets)}`);
            const first = await stores.works.list({ ...(q && { q }), facets, limit });
            assert.deepEqual(first.total, { count: expected.length, exact: true });
            assert.equal(first.facets?.exact, true);
            const counted = asMaps(first.facets!);
            // A facet applied is counted over the matches without it (ADR 0099); the others over
            // the matches. Every author is listed here (fewer than the facet's size).
            for (const name of FACET_NAMES) {
              const { [name]: _lifted, ...others } = facets;
              const over = searched.filter((id) => keeps(rows.get(id)!, others));
              const brute = bruteFacets(over.map((id) => rows.get(id)!));
              assert.deepEqual(counted[name], brute[name], `${name} ${JSON.stringify(facets)}`);
            }
          }
        }
      });
    }

    test('each facet counted by its own statement, all at once, counts what one statement counts', async () => {
      const rows = await database.db
        .selectFrom('works')
        .select('id')
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
      const ids = rows.map((r) => r.id);
      const together = await countFacets(database.db, ids, true);
      const apart = await countFacets(database.db, ids, true, { sideBySide: true });
      assert.deepEqual(apart, together);
      for (const name of FACET_NAMES) assert.ok(together[name].length > 0, `${name} has values`);
    });

    test('facet values come in a fixed order, with names', async () => {
      const { facets } = await stores.works.list({ limit: 5 });
      assert.ok(facets);
      const decades = facets.dekade.map((d) => d.value);
      assert.deepEqual(
        decades,
        [...decades].sort((a, b) => a - b),
      );
      assert.ok(decades.includes(-20), 'a year before 0 is floored into its decade');
      const counts = facets.autor.map((a) => a.count);
      assert.deepEqual(
        counts,
        [...counts].sort((a, b) => b - a),
      );
      assert.equal(facets.autor[0]?.vorname.length !== 0, true);
      assert.deepEqual(
        facets.medientyp.find((t) => t.value === 'dvd'),
        {
          value: 'dvd',
          name_de: 'DVD',
          name_en: 'DVD',
          count: facets.medientyp.find((t) => t.value === 'dvd')!.count,
        },
      );
      assert.deepEqual(
        facets.verfuegbar.map((v) => v.value),
        ['ja', 'nein'],
      );
    });

    test('every format shows the facets with counts and applying URLs, keeps filters in its links, validates', async () => {
      const get = (query: string, format: 'html' | 'xml' | 'json' = 'html') =>
        worksResource(stores.works).methods.GET!(fakeContext({ query, format }));
      const autor = slugs[1]!;
      const outcome = await get(`q=buch&autor=${autor}&verfuegbar=ja&anzahl=1`);
      const rep = outcome.type === 'representation' ? outcome.representation : undefined;
      assert.equal(rep?.robots, 'noindex');
      const json = render(outcome, 'json') as {
        naechste?: string;
        gesamt: number;
        filter: { facette: string; wert: string; entfernen: string }[];
        facetten: Record<
          string,
          { wert: string; anzahl: number; url: string; gewaehlt?: true; name?: string }[]
        > & {
          genau: boolean;
        };
      };
      assert.equal(jsonErrors('works', json), '');
      const base = 'https://library.example/werke';
      assert.equal(json.naechste?.startsWith(`${base}?q=buch&autor=${autor}&verfuegbar=ja&nach=`), true);
      assert.ok(json.naechste?.endsWith('&anzahl=1'));
      assert.deepEqual(json.filter, [
        { facette: 'autor', wert: autor, entfernen: `${base}?q=buch&verfuegbar=ja&anzahl=1` },
        { facette: 'verfuegbar', wert: 'ja', entfernen: `${base}?q=buch&autor=${autor}&anzahl=1` },
      ]);
      assert.equal(json.facetten.genau, true);
      const chosen = json.facetten.autor!.find((a) => a.wert === autor)!;
      assert.equal(chosen.gewaehlt, true);
      assert.equal(chosen.anzahl, json.gesamt, 'every match is by the chosen author');
      assert.equal(chosen.name, 'Bruno Berg');
      const decade = json.facetten.dekade![0]!;
      assert.equal(decade.url, `${base}?q=buch&autor=${autor}&dekade=${decade.wert}&verfuegbar=ja&anzahl=1`);
      // The chosen facet's values are counted without it (ADR 0099): the other value is offered
      // too, its URL choosing both; the chosen one's lifting it.
      const available = json.facetten.verfuegbar!;
      assert.deepEqual(
        available.map((v) => [v.wert, v.gewaehlt ?? false]),
        [
          ['ja', true],
          ['nein', false],
        ],
      );
      assert.equal(available[1]!.url, `${base}?q=buch&autor=${autor}&verfuegbar=ja&verfuegbar=nein&anzahl=1`);
      assert.equal(
        (available[0] as { entfernen?: string }).entfernen,
        `${base}?q=buch&autor=${autor}&anzahl=1`,
      );

      const xml = renderText(outcome, 'xml');
      assert.equal(await xmlErrors('works', xml), '');
      assert.match(
        xml,
        new RegExp(
          `<filter facette="autor" wert="${autor}" entfernen="${base}\\?q=buch&amp;verfuegbar=ja&amp;anzahl=1"/>`,
        ),
      );
      assert.match(xml, /<facetten genau="true">/);
      assert.match(
        xml,
        new RegExp(
          `<wert wert="${autor}" anzahl="${json.gesamt}" ref="[^"]+" gewaehlt="true" entfernen="${base}\\?q=buch&amp;verfuegbar=ja&amp;anzahl=1">Bruno Berg</wert>`,
        ),
      );

      const html = squash(renderText(outcome, 'html'));
      assert.match(html, /<meta name="robots" content="noindex">/);
      assert.match(html, /<aside class="facets" aria-label="Eingrenzen">/);
      assert.match(html, /<strong aria-current="true">Bruno Berg<\/strong>/);
      assert.match(
        html,
        new RegExp(
          `<a href="/werke\\?q=buch&amp;autor=${autor}&amp;dekade=${decade.wert}&amp;verfuegbar=ja&amp;anzahl=1" rel="nofollow">${decade.wert}er</a>`,
        ),
      );
      // The next page link keeps the filters.
      assert.match(html, new RegExp(`href="/werke\\?q=buch&amp;autor=${autor}&amp;verfuegbar=ja&amp;nach=`));
      // The order links keep them too.
      assert.match(
        html,
        new RegExp(
          `href="/werke\\?q=buch&amp;sortierung=relevanz&amp;autor=${autor}&amp;verfuegbar=ja&amp;anzahl=1"`,
        ),
      );

      // Unfiltered: indexable, the facets still shown.
      const plain = await get('');
      assert.equal(plain.type === 'representation' && plain.representation.robots, undefined);
      assert.doesNotMatch(squash(renderText(plain, 'html')), /name="robots"/);
      const english = squash(
        (plain.type === 'representation' &&
          plain.representation.view.html(plain.representation.model as never, fakeContext({ lang: 'en' }))
            .text) ||
          '',
      );
      assert.match(english, /<h3>Availability<\/h3>/);
      assert.match(english, />available now<\/a>/);
      assert.equal(await xmlErrors('works', renderText(plain, 'xml')), '');
      assert.equal(jsonErrors('works', render(plain, 'json')), '');
    });

    test('several values of a facet: any of them, in canonical order in every link, each lifted alone', async () => {
      const get = (query: string, format: 'html' | 'xml' | 'json' = 'json') =>
        worksResource(stores.works).methods.GET!(fakeContext({ query, format }));
      const base = 'https://library.example/werke';
      const [a, b] = [slugs[3]!, slugs[0]!];
      // Repeated, out of order, duplicated: read as the same filter.
      const outcome = await get(`dekade=1940&autor=${a}&dekade=1900&anzahl=2&autor=${b}&dekade=1940&dekade=`);
      const rep = outcome.type === 'representation' ? outcome.representation : undefined;
      assert.equal(rep?.robots, 'noindex');
      const [first, second] = [a, b].sort();
      const kept = `autor=${first}&autor=${second}&dekade=1900&dekade=1940`;
      assert.equal(rep?.canonicalPath, `/werke?${kept}&anzahl=2`);
      const json = render(outcome, 'json') as {
        gesamt: number;
        naechste?: string;
        werk: { url: string }[];
        filter: { facette: string; wert: string; entfernen: string }[];
        facetten: Record<
          string,
          { wert: string; anzahl: number; url: string; gewaehlt?: true; entfernen?: string }[]
        >;
      };
      assert.equal(jsonErrors('works', json), '');
      const rows = await truth(database);
      const expected = [...rows.values()].filter((w) => keeps(w, { autor: [a, b], dekade: [1900, 1940] }));
      assert.ok(expected.length > 2, 'more than a page');
      assert.equal(json.gesamt, expected.length);
      assert.ok(json.naechste?.startsWith(`${base}?${kept}&nach=`), json.naechste);
      assert.deepEqual(json.filter, [
        {
          facette: 'autor',
          wert: first,
          entfernen: `${base}?autor=${second}&dekade=1900&dekade=1940&anzahl=2`,
        },
        {
          facette: 'autor',
          wert: second,
          entfernen: `${base}?autor=${first}&dekade=1900&dekade=1940&anzahl=2`,
        },
        {
          facette: 'dekade',
          wert: '1900',
          entfernen: `${base}?autor=${first}&autor=${second}&dekade=1940&anzahl=2`,
        },
        {
          facette: 'dekade',
          wert: '1940',
          entfernen: `${base}?autor=${first}&autor=${second}&dekade=1900&anzahl=2`,
        },
      ]);
      // Another decade is offered with its URL choosing it too, in its place by number.
      const other = json.facetten.dekade!.find((d) => d.wert === '1910')!;
      assert.equal(
        other.url,
        `${base}?autor=${first}&autor=${second}&dekade=1900&dekade=1910&dekade=1940&anzahl=2`,
      );
      assert.equal(other.gewaehlt, undefined);
      const chosen = json.facetten.dekade!.filter((d) => d.gewaehlt).map((d) => d.wert);
      assert.deepEqual(chosen, ['1900', '1940']);

      const xml = renderText(outcome, 'xml');
      assert.equal(await xmlErrors('works', xml), '');
      assert.match(
        xml,
        new RegExp(
          `<naechste ref="${base}\\?autor=${first}&amp;autor=${second}&amp;dekade=1900&amp;dekade=1940&amp;nach=`,
        ),
      );

      const html = squash(renderText(outcome, 'html'));
      assert.match(html, /<meta name="robots" content="noindex">/);
      // Each chosen value marked, with a link lifting it alone.
      for (const decade of ['1900', '1940']) {
        const lifted = `/werke\\?autor=${first}&amp;autor=${second}&amp;dekade=${decade === '1900' ? '1940' : '1900'}&amp;anzahl=2`;
        assert.match(
          html,
          new RegExp(
            `<strong aria-current="true">${decade}er</strong>.*?<a href="${lifted}" rel="nofollow" aria-label="„${decade}er“ aufheben"`,
          ),
        );
      }
      assert.match(
        html,
        new RegExp(
          `<a href="/werke\\?autor=${first}&amp;autor=${second}&amp;dekade=1900&amp;dekade=1910&amp;dekade=1940&amp;anzahl=2" rel="nofollow">1910er</a>`,
        ),
      );
      // Paging forward and back keeps them: the same rows as the brute force, in list order.
      const ids: string[] = [];
      let next: string | undefined = `autor=${a}&autor=${b}&dekade=1900&dekade=1940&anzahl=2`;
      while (next !== undefined) {
        const page = render(await get(next), 'json') as { werk: { url: string }[]; naechste?: string };
        ids.push(...page.werk.map((w) => w.url));
        next = page.naechste && new URL(page.naechste).search.slice(1);
      }
      assert.equal(ids.length, expected.length);
    });

    test('a chosen value the counts do not reach is still shown, with its lifting link', async () => {
      const outcome = await worksResource(stores.works).methods.GET!(
        fakeContext({ query: `autor=${slugs[0]}&autor=nobody-of-that-name`, format: 'html' }),
      );
      const html = squash(renderText(outcome, 'html'));
      assert.match(
        html,
        new RegExp(
          `<strong aria-current="true">nobody-of-that-name</strong>.*?href="/werke\\?autor=${slugs[0]}"`,
        ),
      );
    });

    test('a malformed facet value is 400; an unknown author or type finds nothing', async () => {
      const get = (query: string) =>
        worksResource(stores.works).methods.GET!(fakeContext({ query, format: 'json' }));
      for (const query of [
        'dekade=1905',
        'dekade=19x0',
        'dekade=9990',
        'verfuegbar=vielleicht',
        'autor=Not%20A%20Slug',
        'medientyp=DVD!',
        'dekade=1900&dekade=1905',
        'autor=goethe&autor=Not%20A%20Slug',
        Array.from({ length: MAX_FACET_VALUES + 1 }, (_, i) => `dekade=${1800 + 10 * i}`).join('&'),
      ])
        await assert.rejects(get(query), (e) => e instanceof HttpError && e.status === 400, query);
      for (const query of ['autor=niemand', 'medientyp=kassette']) {
        const json = render(await get(query), 'json') as { gesamt: number; werk: unknown[] };
        assert.equal(json.gesamt, 0, query);
        assert.equal(jsonErrors('works', json), '');
      }
      // An empty value is no filter.
      const all = render(await get('dekade=&autor='), 'json') as { filter?: unknown };
      assert.equal(all.filter, undefined);
    });

    test('relevance order keeps only the works the filters keep, exact part included', async () => {
      const plain = (await walk({ q: 'der garten 03' }, 3)).ids;
      assert.ok(plain.length > 0);
      for (const facets of FILTERS()) {
        const rows = await truth(database);
        const expected = new Set(plain.filter((id) => keeps(rows.get(id)!, facets)));
        const ranked = await walk({ q: 'der garten 03', order: 'relevanz', facets }, 3);
        assert.deepEqual(new Set(ranked.ids), expected, JSON.stringify(facets));
        assert.equal(ranked.ids.length, expected.size);
      }
    });
  });
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`works facets past the count's cap on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    const MANY = SEARCH_COUNT_CAP + 20;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      const author = await stores.persons.create({ vorname: 'Vera', nachname: 'Viel' });
      for (let i = 0; i < MANY; i++)
        await stores.works.create({ titel: `Masse ${i}`, jahr: 1900 + (i % 20), personIds: [author.id] });
    });
    after(() => database?.dispose());

    test('more matches than the caps: counts to 500 (filtered: 100), facets over the first 100 as lower bounds', async () => {
      const inexact = [
        { request: { q: 'masse' }, cap: SEARCH_COUNT_CAP },
        { request: { facets: { autor: ['vera-viel'] } }, cap: FACET_SAMPLE },
        { request: { q: 'masse', facets: { verfuegbar: ['ja' as const] } }, cap: FACET_SAMPLE },
        { request: { facets: { dekade: [1910] } }, cap: FACET_SAMPLE },
      ];
      for (const { request, cap } of inexact) {
        const page = await stores.works.list({ ...request, limit: 10 });
        const facets = page.facets!;
        const label = JSON.stringify(request);
        assert.deepEqual(page.total, { count: cap, exact: false }, label);
        assert.equal(facets.exact, false, label);
        assert.deepEqual(
          facets.autor.map((a) => [a.slug, a.count]),
          [['vera-viel', FACET_SAMPLE]],
          label,
        );
        assert.equal(
          facets.dekade.reduce((sum, d) => sum + d.count, 0),
          FACET_SAMPLE,
          label,
        );
        for (const d of facets.dekade) assert.ok(d.count <= MANY / 2, label);
        assert.deepEqual(facets.verfuegbar, [{ value: 'ja', count: FACET_SAMPLE }], label);
      }
      // The unfiltered list keeps its exact total; its facets are the first matches'.
      const plain = await stores.works.list({ limit: 10 });
      assert.deepEqual(plain.total, { count: MANY, exact: true });
      assert.equal(plain.facets?.exact, false);
      assert.equal(plain.facets?.autor[0]?.count, FACET_SAMPLE);
      // A search past the facets' sample but within the count's cap: an exact total, lower bounds.
      const some = await stores.works.list({ q: 'masse 1', limit: 10 });
      assert.equal(some.total?.exact, true);
      assert.ok(some.total!.count > FACET_SAMPLE);
      assert.equal(some.facets?.exact, false);
      // A decade chosen: its values are counted over the search without it (ADR 0099), which has
      // more than the sample's matches, so they are lower bounds however few the page's are.
      const decade = await stores.works.list({ q: 'masse 1', facets: { dekade: [1900] }, limit: 10 });
      assert.equal(decade.total?.exact, true);
      assert.equal(decade.facets?.exact, false);
      // Few enough for both readings: exact.
      const few = await stores.works.list({ q: 'masse 10', facets: { dekade: [1900] }, limit: 10 });
      assert.equal(few.total?.exact, true);
      assert.equal(few.facets?.exact, true);
      assert.equal(few.facets?.autor[0]?.count, few.total?.count);
    });
  });
}
