// Issue 11, item 7: robots.txt keeps crawlers out of the log-in page (and what needs a log-in);
// /sitemap.xml names every public person and work with lastmod, valid against the sitemaps.org
// schemas (xmllint, fixtures in ./fixtures/sitemaps.org), and past its limit becomes an index.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createResourceApp } from '../../src/http/index.ts';
import { catalogueResources } from '../../src/catalogue/index.ts';
import { memoryCatalogue } from '../kit/catalogue/memory.ts';
import { startCatalogue, type Catalogue } from '../acceptance/catalogue-server.ts';
import { skipUnless } from '../support/requirements.ts';
import { validateXml } from '../support/xml.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'sitemaps.org');
const SITEMAP_XSD = path.join(FIXTURES, 'sitemap.xsd');
const INDEX_XSD = path.join(FIXTURES, 'siteindex.xsd');

const locs = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

async function assertValid(xml: string, xsd: string): Promise<void> {
  const result = await validateXml(xml, xsd);
  assert.ok(result.ok, result.errors);
}

describe('robots.txt and the sitemap of the demo catalogue', skipUnless('xmllint'), () => {
  let c: Catalogue;
  before(async () => {
    c = await startCatalogue();
  });
  after(() => c.stop());

  test('robots.txt keeps crawlers out of /sitzung (every ?zurueck=…) and names the sitemap', async () => {
    const r = await c.get('/robots.txt');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await r.text();
    assert.match(text, /^User-agent: \*$/m);
    for (const path of ['/sitzung', '/ausleihen', '/protokoll/fehler', '/server-status'])
      assert.match(text, new RegExp(`^Disallow: ${path}$`, 'm'));
    // Filtered lists (ADR 0094): each facet parameter, first or later, with or without a suffix.
    for (const name of ['autor', 'dekade', 'verfuegbar', 'medientyp']) {
      assert.match(text, new RegExp(`^Disallow: /werke\\*\\?${name}=$`, 'm'));
      assert.match(text, new RegExp(`^Disallow: /werke\\*&${name}=$`, 'm'));
    }
    // The persons list's decades (ADR 0102); its other parameters are not facets there.
    assert.match(text, /^Disallow: \/personen\*\?dekade=$/m);
    assert.match(text, /^Disallow: \/personen\*&dekade=$/m);
    assert.doesNotMatch(text, /^Disallow: \/personen\*\?autor=$/m);
    assert.match(text, new RegExp(`^Sitemap: ${c.url('/sitemap.xml')}$`, 'm'));
  });

  /** Each filtered list of `queries` answers noindex in every format; `plain` (a search) does not. */
  async function noindexWhenFiltered(list: string, queries: readonly string[], plain: string): Promise<void> {
    for (const [suffix, accept] of [
      ['', 'text/html'],
      ['', 'application/xml'],
      ['', 'application/json'],
      ['.json', '*/*'],
    ] as const) {
      for (const query of queries) {
        const filtered = await c.get(`${list}${suffix}?${query}`, { accept });
        assert.equal(filtered.status, 200);
        assert.equal(filtered.headers.get('x-robots-tag'), 'noindex', `${list} ${query} ${suffix} ${accept}`);
        const body = await filtered.text();
        if (accept === 'text/html') assert.match(body, /<meta name="robots" content="noindex" \/>/);
      }
      const unfiltered = await c.get(`${list}${suffix}?${plain}`, { accept });
      assert.equal(unfiltered.headers.get('x-robots-tag'), null);
      if (accept === 'text/html') assert.doesNotMatch(await unfiltered.text(), /name="robots"/);
      else await unfiltered.body?.cancel();
    }
  }

  test('a filtered works list says noindex in every format; the list itself does not', async () => {
    // One value, and several of one facet (ADR 0099).
    await noindexWhenFiltered(
      '/werke',
      ['q=faust&dekade=1800', 'dekade=1800&dekade=1900&verfuegbar=ja&verfuegbar=nein'],
      'q=faust',
    );
  });

  test('a persons list filtered by decade says noindex in every format; the list itself does not', async () => {
    await noindexWhenFiltered('/personen', ['q=goethe&dekade=1800', 'dekade=1800&dekade=1900'], 'q=goethe');
  });

  test('every person and work, each with lastmod; valid against sitemap.xsd', async () => {
    const r = await c.get('/sitemap.xml');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/xml/);
    const xml = await r.text();
    await assertValid(xml, SITEMAP_XSD);
    const listed = new Set(locs(xml));
    const all: string[] = [];
    for (const [collection, key] of [
      ['/personen', 'person'],
      ['/werke', 'werk'],
    ] as const) {
      let next: string | undefined = c.url(`${collection}.json?anzahl=100`);
      while (next) {
        const page = (await (await c.get(next)).json()) as Record<string, unknown>;
        all.push(...(page[key] as { url: string }[]).map((item) => item.url));
        next = page.naechste as string | undefined;
      }
    }
    assert.ok(all.length > 300);
    assert.deepEqual([...listed].sort(), [...all].sort());
    assert.equal([...xml.matchAll(/<lastmod>/g)].length, all.length);
  });
});

describe('a sitemap past its limit becomes an index of parts', skipUnless('xmllint'), () => {
  test('110 URLs at 50 per file: an index of 3 valid parts that together name each URL once', async () => {
    const stores = await memoryCatalogue();
    const ids: number[] = [];
    for (let i = 0; i < 80; i += 1)
      ids.push((await stores.persons.create({ vorname: 'Person', nachname: `Nummer ${i}` })).id);
    const gone = await stores.persons.create({ vorname: 'Weg', nachname: 'Geloescht' });
    await stores.persons.delete(gone.id);
    // A patron (no works) is never public, so never in the sitemap (ADR 0062).
    await stores.persons.create({ vorname: 'Anna', nachname: 'Leserin' });
    // Every one of the 80 is an author of one of the 30 works, so public.
    for (let i = 0; i < 30; i += 1)
      await stores.works.create({ titel: `Werk ${i}`, personIds: ids.filter((_, k) => k % 30 === i) });
    const catalogue = catalogueResources(stores, { sitemapLimit: 50 });
    const app = await createResourceApp({
      baseUrl: 'https://library.example/katalog',
      trustProxy: [],
      resources: catalogue.resources,
      rewrites: catalogue.rewrites,
      passthrough: catalogue.passthrough,
      configure: catalogue.configure,
      displayErrors: false,
    });
    try {
      const index = await app.inject('/katalog/sitemap.xml');
      assert.equal(index.statusCode, 200);
      await assertValid(index.body, INDEX_XSD);
      const parts = locs(index.body);
      assert.deepEqual(
        parts,
        [1, 2, 3].map((n) => `https://library.example/katalog/sitemap/${n}.xml`),
      );
      const urls: string[] = [];
      for (const part of parts) {
        const r = await app.inject(new URL(part).pathname);
        assert.equal(r.statusCode, 200, part);
        await assertValid(r.body, SITEMAP_XSD);
        urls.push(...locs(r.body));
      }
      assert.equal(urls.length, 110);
      assert.equal(new Set(urls).size, 110);
      assert.ok(!urls.some((u) => u.includes('geloescht')), 'a deleted person is not listed');
      assert.ok(!urls.some((u) => u.includes('leserin')), 'a patron is not listed');
      assert.ok(urls.every((u) => u.startsWith('https://library.example/katalog/')));
      assert.equal((await app.inject('/katalog/sitemap/4.xml')).statusCode, 404);
      assert.equal((await app.inject('/katalog/sitemap/0.xml')).statusCode, 404);
      const robots = (await app.inject('/katalog/robots.txt')).body;
      assert.match(robots, /^Disallow: \/katalog\/sitzung$/m);
      assert.match(robots, /^Sitemap: https:\/\/library\.example\/katalog\/sitemap\.xml$/m);
    } finally {
      await app.close();
    }
  });
});

test('an empty catalogue still has a valid sitemap: its home page', skipUnless('xmllint'), async () => {
  const catalogue = catalogueResources(await memoryCatalogue());
  const app = await createResourceApp({
    baseUrl: 'https://library.example',
    trustProxy: [],
    resources: catalogue.resources,
    rewrites: catalogue.rewrites,
    passthrough: catalogue.passthrough,
    configure: catalogue.configure,
    displayErrors: false,
  });
  try {
    const r = await app.inject('/sitemap.xml');
    await assertValid(r.body, SITEMAP_XSD);
    assert.deepEqual(locs(r.body), ['https://library.example/']);
  } finally {
    await app.close();
  }
});
