// Issue 22, item 2: the OAI-PMH provider at /oai verb by verb, on SQLite and PostgreSQL —
// every answer valid against the protocol's schemas (OAI-PMH.xsd with oai_dc.xsd and
// MARC21slim.xsd, in ./fixtures, checked by xmllint), every error code where the protocol puts
// it, POST as GET, from/until in both granularities, and a list harvest whose tokens survive
// writes between its pages (ADR 0081).
import assert from 'node:assert/strict';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createResourceApp } from '../../src/http/index.ts';
import { catalogueResources } from '../../src/catalogue/index.ts';
import { createStores, type CatalogueStores } from '../../src/catalogue/stores.ts';
import { loadDemo } from '../../src/catalogue/demo/index.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../kit/catalogue/targets.ts';
import { skipUnless } from '../support/requirements.ts';
import { validateXml } from '../support/xml.ts';

const SCHEMA = path.join(import.meta.dirname, 'fixtures', 'all.xsd');
const BASE = 'https://library.example/katalog';
const OAI = `${BASE}/oai`;
const id = (slug: string) => `oai:library.example:${slug}`;

const all = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);
const errorCodes = (xml: string) => [...xml.matchAll(/<error code="([^"]+)"/g)].map((m) => m[1]!);
const tokenOf = (xml: string) => /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
const requestElement = (xml: string) => /<request[^>]*>[^<]*<\/request>/.exec(xml)?.[0];

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`OAI-PMH at /oai (${target.dialect})`, { skip: target.skip || skipUnless('xmllint').skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let app: FastifyInstance;
    let clock = new Date('2026-03-01T08:00:00.000Z');
    const at = (iso: string) => (clock = new Date(iso));

    before(async () => {
      database = await target.open();
      await loadDemo(database.db, clock);
      stores = createStores(database.db, { capabilities: database.capabilities, now: () => clock });
      const catalogue = catalogueResources(stores, { now: () => clock, oaiPageSize: 40 });
      app = await createResourceApp({
        baseUrl: BASE,
        trustProxy: [],
        resources: catalogue.resources,
        rewrites: catalogue.rewrites,
        passthrough: catalogue.passthrough,
        configure: catalogue.configure,
        displayErrors: false,
      });
    });
    after(async () => {
      await app?.close();
      await database?.dispose();
    });

    /** The answer to a query (GET) or a form body (POST), checked against the schemas. */
    async function ask(query: string, method: 'GET' | 'POST' = 'GET'): Promise<string> {
      const r =
        method === 'GET'
          ? await app.inject(`/katalog/oai?${query}`)
          : await app.inject({
              method: 'POST',
              url: '/katalog/oai',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: query,
            });
      assert.equal(r.statusCode, 200, `${query}: ${r.body}`);
      assert.equal(r.headers['content-type'], 'text/xml; charset=utf-8');
      const valid = await validateXml(r.body, SCHEMA);
      assert.ok(valid.ok, `${query}: ${valid.errors}\n${r.body.slice(0, 2000)}`);
      return r.body;
    }

    async function listAll(verb: string, query: string): Promise<string[]> {
      const ids: string[] = [];
      let body = await ask(`verb=${verb}&${query}`);
      for (;;) {
        ids.push(...all(body, 'identifier'));
        const token = tokenOf(body);
        if (!token) return ids;
        body = await ask(`verb=${verb}&resumptionToken=${encodeURIComponent(token)}`);
      }
    }

    test('Identify: base URL, earliest datestamp, persistent deletions, seconds', async () => {
      at('2026-03-01T09:00:00.000Z');
      const body = await ask('verb=Identify');
      assert.deepEqual(all(body, 'baseURL'), [OAI]);
      assert.deepEqual(all(body, 'protocolVersion'), ['2.0']);
      assert.deepEqual(all(body, 'earliestDatestamp'), ['2026-03-01T08:00:00Z']);
      assert.deepEqual(all(body, 'deletedRecord'), ['persistent']);
      assert.deepEqual(all(body, 'granularity'), ['YYYY-MM-DDThh:mm:ssZ']);
      assert.deepEqual(all(body, 'adminEmail'), ['webmaster@library.example']);
      assert.deepEqual(all(body, 'responseDate'), ['2026-03-01T09:00:00Z']);
      assert.equal(requestElement(body), `<request verb="Identify">${OAI}</request>`);
    });

    test('ListMetadataFormats: oai_dc and marc21, for the repository and for an item', async () => {
      for (const query of [
        'verb=ListMetadataFormats',
        `verb=ListMetadataFormats&identifier=${id('faust')}`,
      ]) {
        const body = await ask(query);
        assert.deepEqual(all(body, 'metadataPrefix'), ['oai_dc', 'marc21']);
      }
      const unknown = await ask(`verb=ListMetadataFormats&identifier=${id('no-such-work')}`);
      assert.deepEqual(errorCodes(unknown), ['idDoesNotExist']);
    });

    test('ListSets: no set hierarchy; a token there is bad', async () => {
      assert.deepEqual(errorCodes(await ask('verb=ListSets')), ['noSetHierarchy']);
      assert.deepEqual(errorCodes(await ask('verb=ListSets&resumptionToken=abc')), ['badResumptionToken']);
      const set = await ask('verb=ListRecords&metadataPrefix=oai_dc&set=x');
      assert.deepEqual(errorCodes(set), ['noSetHierarchy']);
    });

    test('GetRecord in both formats: title, authors, holdings (852) and the work URL', async () => {
      const dc = await ask(`verb=GetRecord&identifier=${id('faust')}&metadataPrefix=oai_dc`);
      assert.deepEqual(all(dc, 'dc:title'), ['Faust']);
      assert.deepEqual(all(dc, 'dc:creator'), ['von Goethe, Johann Wolfgang']);
      assert.ok(all(dc, 'dc:identifier').includes(`${BASE}/werke/faust`));
      const marc = await ask(`verb=GetRecord&identifier=${id('faust')}&metadataPrefix=marc21`);
      assert.match(marc, /<marc:controlfield tag="001">faust<\/marc:controlfield>/);
      assert.match(marc, /<marc:datafield tag="245" ind1="1" ind2="0"><marc:subfield code="a">Faust</);
      const copies = await stores.copies.list(
        (
          await database.db
            .selectFrom('works')
            .select('id')
            .where('slug', '=', 'faust')
            .executeTakeFirstOrThrow()
        ).id,
      );
      assert.ok(copies.length > 0);
      const holdings = [...marc.matchAll(/<marc:datafield tag="852"[^>]*>(.*?)<\/marc:datafield>/g)].map(
        (m) => m[1]!,
      );
      assert.equal(holdings.length, copies.length);
      for (const [i, copy] of copies.entries()) {
        assert.match(holdings[i]!, new RegExp(`code="j">${copy.signatur.replace(/[+]/g, '\\+')}<`));
        assert.match(holdings[i]!, new RegExp(`code="p">${copy.barcode}<`));
        assert.match(holdings[i]!, new RegExp(`code="c">${copy.standort}<`));
      }
    });

    test('GetRecord errors: unknown identifier, unknown format, both at once', async () => {
      const base = `verb=GetRecord&metadataPrefix=oai_dc&identifier=`;
      assert.deepEqual(errorCodes(await ask(`${base}${id('no-such-work')}`)), ['idDoesNotExist']);
      assert.deepEqual(errorCodes(await ask(`${base}oai:elsewhere.example:faust`)), ['idDoesNotExist']);
      assert.deepEqual(errorCodes(await ask(`${base}faust`)), ['idDoesNotExist']);
      const format = await ask(`verb=GetRecord&metadataPrefix=mods&identifier=${id('faust')}`);
      assert.deepEqual(errorCodes(format), ['cannotDisseminateFormat']);
      // Not badVerb/badArgument: the request's arguments are echoed.
      assert.equal(
        requestElement(format),
        `<request verb="GetRecord" identifier="${id('faust')}" metadataPrefix="mods">${OAI}</request>`,
      );
      const both = await ask(`verb=GetRecord&metadataPrefix=mods&identifier=${id('nope')}`);
      assert.deepEqual(errorCodes(both), ['cannotDisseminateFormat', 'idDoesNotExist']);
    });

    test('badVerb: missing, unknown, repeated — and the request element names only the base URL', async () => {
      for (const query of ['', 'verb=Foo', 'verb=Identify&verb=Identify', 'verb=identify']) {
        const body = await ask(query);
        assert.deepEqual(errorCodes(body), ['badVerb'], query);
        assert.equal(requestElement(body), `<request>${OAI}</request>`, query);
      }
    });

    test('badArgument: unknown, repeated, missing, beside an exclusive token, malformed dates', async () => {
      const cases = [
        'verb=Identify&identifier=x',
        'verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=marc21',
        'verb=ListRecords',
        'verb=ListIdentifiers&from=2026-01-01',
        'verb=GetRecord&identifier=x',
        'verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=abc',
        'verb=ListRecords&metadataPrefix=oai_dc&from=2026-13-01',
        'verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-30',
        'verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01T00:00:00',
        'verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01T00:00:00.000Z',
        'verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01&until=2026-02-01T00:00:00Z',
        'verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-01&until=2026-01-01',
        'verb=ListRecords&metadataPrefix=oai%20dc',
        'verb=ListRecords&metadataPrefix=oai_dc&set=a%20b',
        'verb=ListRecords&metadataPrefix=%FF',
      ];
      for (const query of cases) {
        const body = await ask(query);
        assert.ok(
          errorCodes(body).length > 0 && errorCodes(body).every((c) => c === 'badArgument'),
          `${query}: ${body}`,
        );
        assert.equal(requestElement(body), `<request>${OAI}</request>`, query);
      }
    });

    test('badResumptionToken: garbage, altered, or issued for the other list verb', async () => {
      const first = await ask('verb=ListIdentifiers&metadataPrefix=oai_dc');
      const token = tokenOf(first);
      assert.ok(token);
      const altered = Buffer.from(
        Buffer.from(token, 'base64url').toString().replace('"m":"oai_dc"', '"m":"mods"'),
      ).toString('base64url');
      for (const query of [
        'verb=ListRecords&resumptionToken=abc',
        'verb=ListRecords&resumptionToken=%7B%7D',
        `verb=ListRecords&resumptionToken=${token}`,
        `verb=ListIdentifiers&resumptionToken=${altered}`,
      ])
        assert.deepEqual(errorCodes(await ask(query)), ['badResumptionToken'], query);
    });

    test('noRecordsMatch and cannotDisseminateFormat in lists', async () => {
      const future = await ask('verb=ListRecords&metadataPrefix=oai_dc&from=2030-01-01');
      assert.deepEqual(errorCodes(future), ['noRecordsMatch']);
      const past = await ask('verb=ListIdentifiers&metadataPrefix=oai_dc&until=2020-01-01T00:00:00Z');
      assert.deepEqual(errorCodes(past), ['noRecordsMatch']);
      const format = await ask('verb=ListRecords&metadataPrefix=mods');
      assert.deepEqual(errorCodes(format), ['cannotDisseminateFormat']);
    });

    test('POST with a form body answers as GET', async () => {
      const query = `verb=GetRecord&identifier=${encodeURIComponent(id('faust'))}&metadataPrefix=marc21`;
      assert.equal(await ask(query, 'POST'), await ask(query));
      assert.deepEqual(errorCodes(await ask('verb=Identify&verb=ListSets', 'POST')), ['badVerb']);
      const json = await app.inject({
        method: 'POST',
        url: '/katalog/oai',
        headers: { 'content-type': 'application/json', accept: 'application/problem+json' },
        payload: '{"verb":"Identify"}',
      });
      assert.equal(json.statusCode, 415);
      assert.equal(json.headers['accept-post'], 'application/x-www-form-urlencoded');
      // Identify says gzip; the server compresses by Accept-Encoding (ADR 0014).
      const gzip = await app.inject({
        url: '/katalog/oai?verb=ListIdentifiers&metadataPrefix=oai_dc',
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.match(gunzipSync(gzip.rawPayload).toString(), /<ListIdentifiers>/);
      const head = await app.inject({ method: 'HEAD', url: '/katalog/oai?verb=Identify' });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
    });

    test('a full list in pages: every work once, the cursor and completeListSize on each token', async () => {
      const works = await database.db.selectFrom('works').select('slug').execute();
      const ids = await listAll('ListIdentifiers', 'metadataPrefix=oai_dc');
      assert.equal(ids.length, works.length);
      assert.deepEqual(new Set(ids), new Set(works.map((w) => id(w.slug))));
      const page1 = await ask('verb=ListRecords&metadataPrefix=marc21');
      assert.equal(all(page1, 'identifier').length, 40);
      assert.match(page1, new RegExp(`<resumptionToken completeListSize="${works.length}" cursor="0">`));
      const page2 = await ask(`verb=ListRecords&resumptionToken=${tokenOf(page1)!}`);
      assert.match(page2, new RegExp(`<resumptionToken completeListSize="${works.length}" cursor="40">`));
      assert.equal((await listAll('ListRecords', 'metadataPrefix=marc21')).length, works.length);
    });

    test('from/until by day and by second select on the datestamp, inclusive at both ends', async () => {
      at('2026-03-02T10:00:00.000Z');
      const faust = (await stores.works.bySlug('faust')) as { found: { id: number } };
      await stores.copies
        .ofWork(faust.found.id)
        .create({ signatur: 'Goe X', barcode: 'OAI-T-1', standort: 'Magazin', vermisst: false });
      at('2026-03-02T10:00:30.000Z');
      const one = [id('faust')];
      assert.deepEqual(await listAll('ListIdentifiers', 'metadataPrefix=oai_dc&from=2026-03-02'), one);
      assert.deepEqual(
        await listAll('ListIdentifiers', 'metadataPrefix=oai_dc&from=2026-03-02T10:00:00Z'),
        one,
      );
      assert.deepEqual(
        await listAll(
          'ListIdentifiers',
          'metadataPrefix=oai_dc&from=2026-03-02T10:00:00Z&until=2026-03-02T10:00:00Z',
        ),
        one,
      );
      assert.deepEqual(
        errorCodes(await ask('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-03-02T10:00:01Z')),
        ['noRecordsMatch'],
      );
      const untilDay = await listAll('ListIdentifiers', 'metadataPrefix=oai_dc&until=2026-03-01');
      assert.ok(!untilDay.includes(id('faust')));
      assert.equal(
        untilDay.length,
        (await database.db.selectFrom('works').select('id').execute()).length - 1,
      );
      const datestamps = all(
        await ask(`verb=GetRecord&identifier=${id('faust')}&metadataPrefix=oai_dc`),
        'datestamp',
      );
      assert.deepEqual(datestamps, ['2026-03-02T10:00:00Z']);
    });

    test('tokens survive writes between pages; the next harvest from this one picks the writes up', async () => {
      at('2026-03-03T12:00:00.000Z');
      const page1 = await ask('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2026-03-01&until=2030-01-01');
      const seen = all(page1, 'identifier');
      const responseDate = all(page1, 'responseDate')[0]!;
      // Between pages (the harvest asked until 2030, but is bounded by its first response's
      // second): a work already sent is edited, one not yet sent is deleted.
      at('2026-03-03T12:00:10.000Z');
      const rows = await database.db
        .selectFrom('works')
        .select(['id', 'slug'])
        .orderBy('updated_at')
        .orderBy('id')
        .execute();
      const sent = rows.find(
        (r) => r.slug === new RegExp(`^oai:library\\.example:(.*)$`).exec(seen[0]!)![1],
      )!;
      const later = rows.filter((r) => !seen.includes(id(r.slug)));
      const unsent = later.find((r) => r.slug !== 'faust')!;
      const work = (await stores.works.bySlug(sent.slug)) as {
        found: { jahr: number | null; exemplare: number; personen: readonly { id: number }[] };
      };
      await stores.works.replace(sent.id, {
        titel: 'Neu betitelt',
        jahr: work.found.jahr,
        exemplare: work.found.exemplare,
        personIds: work.found.personen.map((p) => p.id),
      });
      await database.db.deleteFrom('loans').where('work_id', '=', unsent.id).execute();
      assert.equal(await stores.works.delete(unsent.id), true);
      let body = page1;
      const ids = [...seen];
      for (let token = tokenOf(body); token; token = tokenOf(body)) {
        body = await ask(`verb=ListIdentifiers&resumptionToken=${token}`);
        ids.push(...all(body, 'identifier'));
      }
      assert.equal(new Set(ids).size, ids.length, 'no identifier twice within one harvest');
      assert.ok(
        !ids.includes(id(unsent.slug)),
        'the work deleted after the first page moved past the harvest',
      );
      assert.equal(ids.length, rows.length - 1);
      // The next incremental harvest, from this one's responseDate, gets both writes.
      at('2026-03-03T13:00:00.000Z');
      const next = await ask(`verb=ListIdentifiers&metadataPrefix=oai_dc&from=${responseDate}`);
      assert.deepEqual(new Set(all(next, 'identifier')), new Set([id(sent.slug), id(unsent.slug)]));
      assert.match(next, new RegExp(`<header status="deleted"><identifier>${id(unsent.slug)}</identifier>`));
      const gone = await ask(`verb=GetRecord&identifier=${id(unsent.slug)}&metadataPrefix=marc21`);
      assert.match(gone, /<record><header status="deleted">[^]*<\/header><\/record>/);
      assert.doesNotMatch(gone, /<metadata>/);
    });
  });
}
