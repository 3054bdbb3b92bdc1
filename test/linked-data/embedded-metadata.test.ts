// Issue 22, item 3 (ADR 0095): a work's and a person's pages carry schema.org JSON-LD that a
// JSON-LD processor (jsonld, with schema.org's context from the test kit, never the network)
// reads as the page's facts, safely inside its script element (as Chromium's parser sees it); a work answers as RIS and BibTeX,
// negotiated like its other forms, which Citation.js parses back into the same citation. On
// SQLite and PostgreSQL, over the demo catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import jsonld from 'jsonld';
import { plugins, type CslItem } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { createResourceApp } from '../../src/http/index.ts';
import { catalogueResources } from '../../src/catalogue/index.ts';
import { createStores, type CatalogueStores } from '../../src/catalogue/stores.ts';
import { loadDemo } from '../../src/catalogue/demo/index.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../kit/catalogue/targets.ts';
import { offlineDocumentLoader } from '../kit/linked-data/schema-org-context.ts';
import { launchBrowser } from '../support/browser.ts';
import { skipUnless } from '../support/requirements.ts';

const BASE = 'https://library.example/katalog';
const S = 'http://schema.org/';
const LD_SCRIPT = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g;

/** The JSON-LD blocks of a page, as the HTML parser delimits them (up to the first `</script`). */
function jsonLdOf(page: string): unknown[] {
  return [...page.matchAll(LD_SCRIPT)].map((m) => JSON.parse(m[1]!) as unknown);
}

/** Expanded, then compacted against a context of our own: the facts as a processor reads them. */
async function facts(doc: unknown): Promise<Record<string, unknown>> {
  const options = { documentLoader: offlineDocumentLoader };
  const expanded = await jsonld.expand(doc as jsonld.JsonLdDocument, options);
  return (await jsonld.compact(expanded, { '@vocab': S }, options)) as Record<string, unknown>;
}

const asList = (value: unknown): Record<string, unknown>[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]) as Record<string, unknown>[];

function citations(text: string, type: '@bibtex/text' | '@ris/file'): CslItem[] {
  return plugins.input.chain(text, { forceType: type, generateGraph: false });
}

const TRICKY = '</script><script>alert(1)</script> <!-- 100% {Sicher} & $teuer_#1 ~ ^ \\ "Ende"';

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`embedded metadata and citations (${target.dialect})`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let app: FastifyInstance;
    let tricky: string;

    before(async () => {
      const clock = new Date('2026-03-01T08:00:00.000Z');
      database = await target.open();
      await loadDemo(database.db, clock);
      stores = createStores(database.db, { capabilities: database.capabilities, now: () => clock });
      const goethe = await stores.persons.bySlug('goethe');
      assert.ok(goethe && 'found' in goethe);
      tricky = (await stores.works.create({ titel: TRICKY, jahr: 1900, personIds: [goethe.found.id] })).slug;
      const catalogue = catalogueResources(stores, { now: () => clock });
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

    const get = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: `/katalog${url}`, headers });

    test("a work's page describes it as a schema.org Book with its author and its copies as offers", async () => {
      const page = (await get('/werke/faust')).body;
      const blocks = jsonLdOf(page);
      assert.equal(blocks.length, 1);
      const book = await facts(blocks[0]);
      assert.equal(book['@type'], 'Book');
      assert.equal(book['@id'], `${BASE}/werke/faust`);
      assert.equal(book.name, 'Faust');
      assert.deepEqual(book.url, { '@id': `${BASE}/werke/faust` });
      const [author, ...others] = asList(book.author);
      assert.equal(others.length, 0);
      assert.equal(author?.['@type'], 'Person');
      assert.equal(author?.name, 'Johann Wolfgang von Goethe');
      assert.deepEqual(author?.url, { '@id': `${BASE}/personen/goethe` });
      const offers = asList(book.offers);
      assert.ok(offers.length > 0, 'the demo work has copies');
      for (const offer of offers) {
        assert.equal(offer['@type'], 'Offer');
        assert.deepEqual(offer.businessFunction, { '@id': 'http://purl.org/goodrelations/v1#LeaseOut' });
        // schema.org's enumeration members, by the https IRIs its documentation names.
        assert.match(
          (offer.availability as { '@id': string })['@id'],
          /^https:\/\/schema\.org\/(In|OutOf)Stock$/,
        );
        assert.match(String(offer['@id']), new RegExp(`^${BASE}/werke/faust/exemplare/\\d+$`));
        assert.equal(typeof offer.sku, 'string');
      }
    });

    test("a person's page describes them as a schema.org Person, the author of their works", async () => {
      const page = (await get('/personen/goethe')).body;
      const [block] = jsonLdOf(page);
      const person = await facts(block);
      assert.equal(person['@type'], 'Person');
      assert.equal(person.name, 'Johann Wolfgang von Goethe');
      assert.equal(person.familyName, 'von Goethe');
      assert.deepEqual(person.url, { '@id': `${BASE}/personen/goethe` });
      const works = asList((person['@reverse'] as Record<string, unknown>).author);
      assert.ok(works.some((w) => w['@id'] === `${BASE}/werke/faust` && w.name === 'Faust'));
    });

    test('a title with </script>, <!-- and quotes stays data inside the script element', async () => {
      const page = (await get(`/werke/${tricky}`)).body;
      const start = page.indexOf('<script type="application/ld+json">');
      const end = page.indexOf('</script', start);
      const text = page.slice(start, end);
      assert.ok(!text.includes('<!--') && !/<script/i.test(text.slice(1)), text);
      assert.equal(page.match(/<script/g)?.length, 1, 'no other script element came out of the title');
      const [block] = jsonLdOf(page);
      assert.equal((await facts(block)).name, TRICKY);
    });

    test(
      'Chromium parses that page with one script element whose JSON is the title',
      skipUnless('chromium'),
      async () => {
        const browser = await launchBrowser();
        try {
          const page = await browser.newPage({ javaScriptEnabled: true });
          // No server needed: the bytes the catalogue sent, parsed by the browser's HTML parser.
          await page.setContent((await get(`/werke/${tricky}`)).body);
          const found = (await page.evaluate(
            `[...document.querySelectorAll('script')].map((s) => [s.type, s.textContent])`,
          )) as [string, string][];
          assert.equal(found.length, 1);
          assert.equal(found[0]?.[0], 'application/ld+json');
          assert.equal((JSON.parse(found[0]![1]) as { name: string }).name, TRICKY);
        } finally {
          await browser.close();
        }
      },
    );

    test('RIS: CRLF lines of tag, two spaces, hyphen, space; parsed back into the same citation', async () => {
      const r = await get('/werke/faust.ris');
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['content-type'], 'application/x-research-info-systems; charset=utf-8');
      assert.doesNotMatch(String(r.headers.vary), /Accept\b/, 'a suffix URL does not vary by Accept');
      const lines = r.body.split('\r\n');
      assert.equal(lines.pop(), '', 'every line ends in CRLF');
      assert.ok(
        lines.every((l) => /^[A-Z][A-Z0-9] {2}- /.test(l)),
        r.body,
      );
      assert.equal(lines[0], 'TY  - BOOK');
      assert.equal(lines.at(-1), 'ER  - ');
      const [item, ...rest] = citations(r.body, '@ris/file');
      assert.equal(rest.length, 0);
      assert.equal(item?.type, 'book');
      assert.equal(item?.title, 'Faust');
      assert.deepEqual(
        item?.author?.map((a) => [a.family, a.given]),
        [['von Goethe', 'Johann Wolfgang']],
      );
      assert.equal(item?.issued?.['date-parts']?.[0]?.[0], 1808);
      assert.equal(item?.URL, `${BASE}/werke/faust`);
    });

    test('BibTeX: one @book entry whose fields parse back, TeX specials escaped', async () => {
      const r = await get('/werke/faust.bib');
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['content-type'], 'application/x-bibtex; charset=utf-8');
      const [item] = citations(r.body, '@bibtex/text');
      assert.equal(item?.type, 'book');
      assert.equal(item?.id, 'faust');
      assert.equal(item?.title, 'Faust');
      assert.deepEqual(
        item?.author?.map((a) => a.family),
        ['Goethe'],
        'BibTeX reads "von" as the name particle',
      );
      assert.equal(item?.URL, `${BASE}/werke/faust`);

      const special = await get(`/werke/${tricky}.bib`);
      assert.ok(
        special.body.includes(
          '<!-{}- 100\\% \\{Sicher\\} \\& \\$teuer\\_\\#1 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}',
        ),
        special.body,
      );
      const [parsed] = citations(special.body, '@bibtex/text');
      assert.equal(parsed?.title, TRICKY);
      const ris = await get(`/werke/${tricky}.ris`);
      assert.equal(citations(ris.body, '@ris/file')[0]?.title, TRICKY);
    });

    test('the citations are negotiated by Accept like the other forms, and named as alternates', async () => {
      const ris = await get('/werke/faust', { accept: 'application/x-research-info-systems' });
      assert.equal(ris.statusCode, 200);
      assert.equal(ris.headers['content-location'], '/katalog/werke/faust.ris');
      assert.match(String(ris.headers.vary), /Accept/);
      const bib = await get('/werke/faust?format=bib');
      assert.equal(bib.headers['content-type'], 'application/x-bibtex; charset=utf-8');
      // A browser's Accept still gets HTML.
      const page = await get('/werke/faust', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      for (const r of [page, await get('/werke/faust.json')]) {
        const link = String(r.headers.link);
        assert.ok(
          link.includes(
            `<${BASE}/werke/faust.ris>; rel="alternate"; type="application/x-research-info-systems"`,
          ),
          link,
        );
        assert.ok(link.includes(`<${BASE}/werke/faust.bib>; rel="alternate"; type="application/x-bibtex"`));
      }
      assert.match(
        page.body,
        /<link rel="alternate" type="application\/x-research-info-systems" href="\/katalog\/werke\/faust\.ris" \/>/,
      );
      assert.match(
        page.body,
        /<link rel="alternate" type="application\/x-bibtex" href="\/katalog\/werke\/faust\.bib" \/>/,
      );
    });

    test('resources without citations: their suffix is 404, their media type 406', async () => {
      assert.equal((await get('/personen/goethe.ris')).statusCode, 404);
      assert.equal((await get('/werke.bib')).statusCode, 404);
      assert.equal((await get('/personen/goethe?format=bib')).statusCode, 404);
      const refused = await get('/personen/goethe', { accept: 'application/x-bibtex' });
      assert.equal(refused.statusCode, 406);
      const available = await get('/personen/goethe', {
        accept: 'application/x-bibtex, application/problem+json',
      });
      assert.equal(available.statusCode, 406);
      const types = (JSON.parse(available.body) as { available: { type: string }[] }).available.map(
        (a) => a.type,
      );
      assert.ok(!types.includes('application/x-bibtex'));
      // The work's 406 lists its citations among what it has.
      const work = await get('/werke/faust', { accept: 'image/png, application/problem+json' });
      assert.equal(work.statusCode, 406);
      const offered = (JSON.parse(work.body) as { available: { type: string; url: string }[] }).available;
      assert.ok(
        offered.some((a) => a.type === 'application/x-bibtex' && a.url === `${BASE}/werke/faust.bib`),
      );
      // A write answers in the three: a citation URL names nothing to write to, and Accept asking
      // only for one is refused before anything is written.
      const staff = { authorization: `Basic ${Buffer.from('personal:personal').toString('base64')}` };
      const before = await get('/werke/faust.json');
      const put = await app.inject({
        method: 'PUT',
        url: '/katalog/werke/faust.ris',
        headers: { ...staff, 'content-type': 'application/json' },
        payload: JSON.stringify({ titel: 'Überschrieben' }),
      });
      assert.equal(put.statusCode, 404);
      const patch = await app.inject({
        method: 'PATCH',
        url: '/katalog/werke/faust',
        headers: { ...staff, 'content-type': 'application/merge-patch+json', accept: 'application/x-bibtex' },
        payload: JSON.stringify({ titel: 'Überschrieben' }),
      });
      assert.equal(patch.statusCode, 406);
      assert.equal((await get('/werke/faust.json')).headers.etag, before.headers.etag, 'nothing was written');
      // An unknown work asked for as RIS: a problem in a format problems have (HTML here).
      const missing = await get('/werke/gibt-es-nicht.ris');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['content-type'], 'text/html; charset=utf-8');
    });
  });
}
