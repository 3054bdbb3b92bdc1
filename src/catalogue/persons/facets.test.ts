// The persons list's decade facet (ADR 0102) on both engines: every filter gives the persons a
// brute-force reading of the tables gives, in list order, page by page both ways, for anonymous
// readers and staff, with and without a search; the decade counts are a brute-force count over
// the list without the decade filter (ADR 0099); writes through the stores (a work in a new
// decade, a work deleted, an author re-linked, a person deleted) change them; every format shows
// the facet, keeps it in its links, validates and is noindex when filtered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Principal } from '../../http/resource/types.ts';
import type { DB } from '../tables.ts';
import type { PersonPageRequest, WorkFacets } from '../model.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { fakeContext, render, renderText, squash } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { HttpError } from '../shared/index.ts';
import { personsResource } from './resource.ts';

const floorDecade = (jahr: number) => jahr - (((jahr % 10) + 10) % 10);

/** Per live person, the decades of its live works, read from the tables without the store's code. */
async function truth(database: TestDatabase<DB>): Promise<Map<number, Set<number>>> {
  const db = database.db;
  const persons = await db.selectFrom('persons').select('id').where('deleted_at', 'is', null).execute();
  const links = await db
    .selectFrom('person_work')
    .innerJoin('works', 'works.id', 'person_work.work_id')
    .select(['person_work.person_id', 'works.jahr'])
    .where('works.deleted_at', 'is', null)
    .execute();
  return new Map(
    persons.map((p) => [
      p.id,
      new Set(links.filter((l) => l.person_id === p.id && l.jahr !== null).map((l) => floorDecade(l.jahr!))),
    ]),
  );
}

const STAFF: Principal = { id: 1, username: 'staff', role: 'staff' };

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`persons facets on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities });
      const persons = [];
      for (let i = 0; i < 30; i++)
        persons.push(
          await stores.persons.create({
            vorname: `Vor${i % 4 === 0 ? ' Garten' : ''}`,
            nachname: `Name ${(i * 7) % 30}`,
          }),
        );
      for (let i = 0; i < 70; i++) {
        const jahr = i % 9 === 0 ? null : i % 11 === 0 ? -5 - i : 1890 + ((i * 13) % 60);
        // Persons 25..29 have no works (private); the others one to several, of several decades.
        const authors = [persons[i % 25]!.id, ...(i % 4 === 0 ? [persons[(i + 3) % 25]!.id] : [])];
        const work = await stores.works.create({
          titel: `Werk ${i}`,
          jahr,
          exemplare: 1,
          personIds: authors,
        });
        if (i % 13 === 5) assert.ok(await stores.works.delete(work.id));
      }
      assert.ok(await stores.persons.delete(persons[7]!.id));
    });
    after(() => database?.dispose());

    /** Every page forward with `limit`, then backward from the last: the ids both ways, the first page's facets. */
    async function walk(request: Omit<PersonPageRequest, 'limit'>, limit: number, viewer: Principal | null) {
      const ids: number[] = [];
      let after: string | undefined;
      let facets: WorkFacets | undefined;
      for (let n = 0; n < 200; n++) {
        const page = await stores.persons.list({ ...request, limit, after }, viewer);
        facets ??= page.facets;
        ids.push(...page.items.map((p) => p.id));
        if (page.next === undefined) break;
        after = page.next;
      }
      const back: number[] = [];
      const last = await stores.persons.list({ ...request, limit, after }, viewer);
      back.unshift(...last.items.map((p) => p.id));
      let before = last.prev;
      while (before !== undefined) {
        const page = await stores.persons.list({ ...request, limit, before }, viewer);
        back.unshift(...page.items.map((p) => p.id));
        before = page.prev;
      }
      return { ids, back, facets: facets! };
    }

    const FILTERS: (readonly number[])[] = [
      [1900],
      [1940],
      [-20],
      [1320],
      [1890, 1930],
      [-20, 1900, 1910, 1920],
    ];

    for (const viewer of [null, STAFF])
      for (const q of [undefined, 'garten', 'name', 'zzzz'])
        test(`decades and counts match a brute-force reading (${viewer ? 'staff' : 'anonymous'}, q=${q ?? ''})`, async () => {
          const rows = await truth(database);
          // The list's own rows and order (the persons store's tests pin them).
          const listed = (await walk({ ...(q && { q }) }, 50, viewer)).ids;
          const brute = new Map<number, number>();
          for (const id of listed) for (const d of rows.get(id)!) brute.set(d, (brute.get(d) ?? 0) + 1);
          for (const dekade of FILTERS) {
            const expected = listed.filter((id) => dekade.some((d) => rows.get(id)!.has(d)));
            for (const limit of [3, 100]) {
              const got = await walk({ ...(q && { q }), facets: { dekade } }, limit, viewer);
              assert.deepEqual(got.ids, expected, `q=${q} dekade=${dekade} limit ${limit}`);
              assert.deepEqual(got.back, expected, `backwards: q=${q} dekade=${dekade} limit ${limit}`);
            }
            const first = await stores.persons.list(
              { ...(q && { q }), facets: { dekade }, limit: 5 },
              viewer,
            );
            assert.deepEqual(first.total, { count: expected.length, exact: true });
            // The decade chosen is counted over the list without it (ADR 0099): as unfiltered.
            assert.equal(first.facets?.exact, true);
            assert.deepEqual(
              new Map(first.facets!.dekade.map((d) => [d.value, d.count])),
              brute,
              `dekade=${dekade}`,
            );
            assert.deepEqual(
              [first.facets!.autor, first.facets!.verfuegbar, first.facets!.medientyp],
              [[], [], []],
            );
          }
          const plain = await stores.persons.list({ ...(q && { q }), limit: 5 }, viewer);
          assert.deepEqual(new Map(plain.facets!.dekade.map((d) => [d.value, d.count])), brute, 'unfiltered');
          const decades = plain.facets!.dekade.map((d) => d.value);
          assert.deepEqual(
            decades,
            [...decades].sort((a, b) => a - b),
            'decades in order',
          );
        });

    test('writes change the decades: a work in a new decade, a work deleted, an author re-linked', async () => {
      const decadeCount = async (decade: number) =>
        (await stores.persons.list({ limit: 5 })).facets!.dekade.find((d) => d.value === decade)?.count ?? 0;
      const idsOf = async (decade: number) =>
        (await stores.persons.list({ limit: 100, facets: { dekade: [decade] } })).items.map((p) => p.id);
      const a = await stores.persons.create({ vorname: 'Ada', nachname: 'Aaberg' });
      const b = await stores.persons.create({ vorname: 'Bea', nachname: 'Aabye' });
      assert.equal(await decadeCount(1500), 0);
      const work = await stores.works.create({ titel: 'Früh', jahr: 1503, personIds: [a.id] });
      assert.equal(await decadeCount(1500), 1, 'a work in a new decade');
      assert.deepEqual(await idsOf(1500), [a.id]);
      const second = await stores.works.create({ titel: 'Früh II', jahr: 1507, personIds: [a.id, b.id] });
      assert.deepEqual(await idsOf(1500), [a.id, b.id]);
      assert.ok(await stores.works.replace(second.id, { titel: 'Früh II', jahr: 1507, personIds: [b.id] }));
      assert.deepEqual(await idsOf(1500), [a.id, b.id], 'a still has its first work');
      // A year changed is recorded under a subject the persons list's cache declares (ADR 0088).
      // (This test's own database: the log is emptied to see what one write records.)
      await sql`delete from change_log`.execute(database.db);
      assert.ok(await stores.works.replace(work.id, { titel: 'Früh', jahr: 1612, personIds: [b.id] }));
      const { rows: logged } = await sql<{ subject: string }>`select subject from change_log`.execute(
        database.db,
      );
      const declared = personsResource(stores.persons).dependsOn!(undefined as never, fakeContext()) ?? [];
      assert.ok(
        logged.some((r) => r.subject === 'person-decades' && declared.includes(r.subject)),
        'the persons list is dropped from the cache',
      );
      assert.deepEqual(await idsOf(1500), [b.id], 'the author re-linked and the year changed');
      assert.deepEqual(await idsOf(1610), [b.id]);
      assert.ok(await stores.works.delete(second.id));
      assert.deepEqual(await idsOf(1500), [], 'the work deleted');
      assert.equal(await decadeCount(1500), 0);
      const renamed = await stores.persons.replace(b.id, { vorname: 'Bea', nachname: 'Zzyzx' });
      assert.ok(renamed);
      const page = await stores.persons.list({ limit: 100, facets: { dekade: [1610, 1900] } });
      assert.equal(page.items.at(-1)?.id, b.id, 'a new name moves the person in the decade’s order');
      assert.ok(await stores.works.delete(work.id));
      assert.ok(await stores.persons.delete(a.id));
      assert.deepEqual(await idsOf(1610), []);
    });

    test('every format shows the decades with counts and applying URLs, keeps the filter in its links, validates', async () => {
      const get = (query: string, format: 'html' | 'xml' | 'json' = 'html') =>
        personsResource(stores.persons).methods.GET!(fakeContext({ query, format }));
      const base = 'https://library.example/personen';
      const outcome = await get('dekade=1940&anzahl=1&dekade=1900&dekade=1900&autor=ignored', 'json');
      const rep = outcome.type === 'representation' ? outcome.representation : undefined;
      assert.equal(rep?.robots, 'noindex');
      assert.equal(rep?.canonicalPath, '/personen?dekade=1900&dekade=1940&anzahl=1');
      const json = render(outcome, 'json') as {
        gesamt: number;
        naechste?: string;
        filter: { facette: string; wert: string; entfernen: string }[];
        facetten: {
          genau: boolean;
          dekade: { wert: string; anzahl: number; url: string; gewaehlt?: true; entfernen?: string }[];
        };
      };
      assert.equal(jsonErrors('persons', json), '');
      assert.ok(json.gesamt > 1);
      assert.ok(json.naechste?.startsWith(`${base}?dekade=1900&dekade=1940&nach=`), json.naechste);
      assert.deepEqual(json.filter, [
        { facette: 'dekade', wert: '1900', entfernen: `${base}?dekade=1940&anzahl=1` },
        { facette: 'dekade', wert: '1940', entfernen: `${base}?dekade=1900&anzahl=1` },
      ]);
      assert.deepEqual(
        Object.keys(json.facetten),
        ['genau', 'dekade'],
        'only the facet the persons list has',
      );
      const chosen = json.facetten.dekade.find((d) => d.wert === '1900')!;
      assert.equal(chosen.gewaehlt, true);
      assert.equal(chosen.entfernen, `${base}?dekade=1940&anzahl=1`);
      const other = json.facetten.dekade.find((d) => d.wert === '1910')!;
      assert.equal(other.url, `${base}?dekade=1900&dekade=1910&dekade=1940&anzahl=1`);

      const xml = renderText(outcome, 'xml');
      assert.equal(await xmlErrors('persons', xml), '');
      assert.match(
        xml,
        /<filter facette="dekade" wert="1900" entfernen="https:\/\/library.example\/personen\?dekade=1940&amp;anzahl=1"\/>/,
      );
      assert.match(xml, /<facetten genau="true">\s*<facette name="dekade">/);
      assert.doesNotMatch(xml, /name="autor"/);

      const html = squash(renderText(outcome, 'html'));
      assert.match(html, /<meta name="robots" content="noindex">/);
      assert.match(html, /<h3>Jahrzehnt der Werke<\/h3>/);
      assert.match(html, /<strong aria-current="true">1900er<\/strong>/);
      assert.match(
        html,
        /<a href="\/personen\?dekade=1900&amp;dekade=1910&amp;dekade=1940&amp;anzahl=1" rel="nofollow">1910er<\/a>/,
      );
      assert.match(html, /href="\/personen\?dekade=1900&amp;dekade=1940&amp;nach=/);

      // A search keeps the decade in its links; unfiltered pages stay indexable, with the facet.
      const searched = render(await get('q=name&dekade=1900', 'json'), 'json') as {
        facetten: { dekade: { url: string }[] };
      };
      assert.ok(searched.facetten.dekade.every((d) => d.url.startsWith(`${base}?q=name&dekade=`)));
      const plain = await get('');
      assert.equal(plain.type === 'representation' && plain.representation.robots, undefined);
      assert.doesNotMatch(squash(renderText(plain, 'html')), /name="robots"/);
      assert.equal(await xmlErrors('persons', renderText(plain, 'xml')), '');
      assert.equal(jsonErrors('persons', render(plain, 'json')), '');
    });

    test('malformed decades and too many are 400', async () => {
      const get = (query: string) =>
        personsResource(stores.persons).methods.GET!(fakeContext({ query, format: 'json' }));
      for (const query of [
        'dekade=1905',
        'dekade=abc',
        'dekade=1900&dekade=x',
        Array.from({ length: 21 }, (_, i) => `dekade=${1800 + i * 10}`).join('&'),
      ])
        await assert.rejects(get(query), (e: unknown) => e instanceof HttpError && e.status === 400, query);
    });
  });
}
