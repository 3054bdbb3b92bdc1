// Issue 22, item 4 (ADR 0096): the Atom feeds of new works (/werke.atom) and of a person's works
// (/personen/{slug}.atom), parsed by Debian's Universal Feed Parser (python3-feedparser) without
// bozo, with RFC 4287's required parts checked (ids, dates, authors, self link), cacheable like
// every read; and the OpenSearch description, valid against the structure of the spec
// (fixtures/opensearch.xsd, xmllint) and with a template that really searches. Every page links
// to both. On SQLite and PostgreSQL, over the demo catalogue.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { catalogueApp } from '../kit/catalogue/app.ts';
import { catalogueResources } from '../../src/catalogue/index.ts';
import { createStores, type CatalogueStores } from '../../src/catalogue/stores.ts';
import { loadDemo } from '../../src/catalogue/demo/index.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { catalogueTestTargets, type TestDatabase } from '../kit/catalogue/targets.ts';
import { DEBIAN_PYTHON, skipUnless } from '../support/requirements.ts';
import { runCommand } from '../support/run-command.ts';
import { validateXml } from '../support/xml.ts';

const BASE = 'https://library.example/katalog';
const OPENSEARCH_XSD = path.join(import.meta.dirname, 'fixtures', 'opensearch.xsd');
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

// What feedparser made of a feed, as JSON: its own findings, not ours.
const PARSE = `
import json, sys, feedparser
d = feedparser.parse(sys.argv[1])
def person(p): return {"name": p.get("name"), "href": p.get("href")}
print(json.dumps({
  "bozo": d.bozo, "error": str(d.get("bozo_exception", "")), "version": d.version,
  "feed": {"id": d.feed.get("id"), "title": d.feed.get("title"), "updated": d.feed.get("updated"),
           "author": person(d.feed.get("author_detail", {})),
           "links": [{"rel": l.get("rel"), "type": l.get("type"), "href": l.get("href")} for l in d.feed.get("links", [])]},
  "entries": [{"id": e.get("id"), "title": e.get("title"), "link": e.get("link"),
               "updated": e.get("updated"), "published": e.get("published"),
               "authors": [person(a) for a in e.get("authors", [])]} for e in d.entries],
}))
`;

interface ParsedPerson {
  readonly name: string | null;
  readonly href: string | null;
}
interface ParsedFeed {
  readonly bozo: boolean;
  readonly error: string;
  readonly version: string;
  readonly feed: {
    readonly id: string;
    readonly title: string;
    readonly updated: string;
    readonly author: ParsedPerson;
    readonly links: readonly { rel: string; type: string; href: string }[];
  };
  readonly entries: readonly {
    readonly id: string;
    readonly title: string;
    readonly link: string;
    readonly updated: string;
    readonly published: string;
    readonly authors: readonly ParsedPerson[];
  }[];
}

async function feedparser(text: string): Promise<ParsedFeed> {
  const dir = await mkdtemp(path.join(tmpdir(), 'shelfmark-feed-'));
  try {
    const file = path.join(dir, 'feed.atom');
    await writeFile(file, text, 'utf8');
    const result = await runCommand(DEBIAN_PYTHON, ['-c', PARSE, file]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as ParsedFeed;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** RFC 4287's rules a parser forgives: unique entry ids, RFC 3339 dates, the feed's own parts. */
function assertAtom(parsed: ParsedFeed, selfUrl: string): void {
  assert.equal(parsed.bozo, false, parsed.error);
  assert.equal(parsed.version, 'atom10');
  assert.equal(parsed.feed.id, selfUrl);
  assert.match(parsed.feed.updated, RFC3339);
  assert.ok(parsed.feed.title);
  assert.ok(parsed.feed.author.name);
  assert.ok(
    parsed.feed.links.some(
      (l) => l.rel === 'self' && l.href === selfUrl && l.type === 'application/atom+xml',
    ),
  );
  assert.equal(new Set(parsed.entries.map((e) => e.id)).size, parsed.entries.length, 'entry ids are unique');
  for (const e of parsed.entries) {
    assert.match(e.id, new RegExp(`^${BASE}/werke/[a-z0-9-]+$`));
    assert.equal(e.link, e.id, 'the entry links to the work it is');
    assert.match(e.updated, RFC3339);
    assert.match(e.published, RFC3339);
    assert.ok(e.published <= e.updated);
    assert.ok(e.updated <= parsed.feed.updated, 'the feed is as new as its newest entry');
  }
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  const requirements = skipUnless('feedparser', 'xmllint');
  describe(
    `Atom feeds and OpenSearch (${target.dialect})`,
    { skip: target.skip || requirements.skip },
    () => {
      let database: TestDatabase<DB>;
      let stores: CatalogueStores;
      let app: FastifyInstance;
      let clock = new Date('2026-03-01T08:00:00.000Z');

      before(async () => {
        database = await target.open();
        await loadDemo(database.db, clock);
        stores = createStores(database.db, { capabilities: database.capabilities, now: () => clock });
        const catalogue = catalogueResources(stores, { now: () => clock });
        app = await catalogueApp(catalogue, { baseUrl: BASE, clock: () => clock.getTime() });
      });
      after(async () => {
        await app?.close();
        await database?.dispose();
      });

      const get = (url: string, headers: Record<string, string> = {}) =>
        app.inject({ method: 'GET', url: `/katalog${url}`, headers });

      test('/werke.atom: the newest works, newest first, a valid Atom feed', async () => {
        const r = await get('/werke.atom');
        assert.equal(r.statusCode, 200);
        assert.equal(r.headers['content-type'], 'application/atom+xml; charset=utf-8');
        const parsed = await feedparser(r.body);
        assertAtom(parsed, `${BASE}/werke.atom`);
        assert.equal(parsed.entries.length, 50, 'a feed shows the newest 50');
        // A new work comes first, with its author.
        clock = new Date('2026-03-02T09:30:00.000Z');
        const kafka = await stores.persons.bySlug('kafka');
        assert.ok(kafka && 'found' in kafka);
        const work = await stores.works.create({
          titel: 'Neu & <eingetroffen>',
          jahr: 2026,
          personIds: [kafka.found.id],
        });
        const after = await feedparser((await get('/werke.atom')).body);
        assertAtom(after, `${BASE}/werke.atom`);
        const first = after.entries[0];
        assert.equal(first?.id, `${BASE}/werke/${work.slug}`);
        assert.equal(first?.title, 'Neu & <eingetroffen>');
        assert.equal(first?.published, '2026-03-02T09:30:00.000Z');
        assert.deepEqual(first?.authors, [{ name: 'Franz Kafka', href: `${BASE}/personen/kafka` }]);
        assert.equal(after.feed.updated, '2026-03-02T09:30:00.000Z');
        assert.deepEqual(
          after.entries.slice(1).map((e) => e.id),
          parsed.entries.slice(0, 49).map((e) => e.id),
          'the entries keep their ids',
        );
      });

      test("/personen/{slug}.atom: a person's works, the person the feed's author", async () => {
        const r = await get('/personen/goethe.atom');
        assert.equal(r.statusCode, 200);
        const parsed = await feedparser(r.body);
        assertAtom(parsed, `${BASE}/personen/goethe.atom`);
        assert.deepEqual(parsed.feed.author, {
          name: 'Johann Wolfgang von Goethe',
          href: `${BASE}/personen/goethe`,
        });
        assert.ok(parsed.entries.some((e) => e.id === `${BASE}/werke/faust` && e.title === 'Faust'));
        const page = (await get('/personen/goethe.json')).body;
        const works = (JSON.parse(page) as { werk: { url: string }[] }).werk.map((w) => w.url);
        assert.deepEqual(new Set(parsed.entries.map((e) => e.id)), new Set(works));
      });

      test('the feeds are negotiated and cached like every read: Accept, ETag, 304, 404 elsewhere', async () => {
        const r = await get('/werke', { accept: 'application/atom+xml' });
        assert.equal(r.statusCode, 200);
        assert.equal(r.headers['content-location'], '/katalog/werke.atom');
        assert.equal(r.headers['cache-control'], 'no-cache');
        const etag = String(r.headers.etag);
        const again = await get('/werke.atom', { 'if-none-match': etag });
        assert.equal(again.statusCode, 304);
        assert.equal((await get('/werke/faust.atom')).statusCode, 404);
        assert.equal((await get('/werke/faust', { accept: 'application/atom+xml' })).statusCode, 406);
        assert.equal((await get('/personen/gibt-es-nicht.atom')).statusCode, 404);
        // A patron is as private in a feed as on their page (ADR 0062).
        assert.equal((await get('/personen/anna-berger.atom')).statusCode, 404);
        assert.equal((await get('/personen/anna-berger')).statusCode, 404);
        const head = await app.inject({ method: 'HEAD', url: '/katalog/personen/goethe.atom' });
        assert.equal(head.statusCode, 200);
        assert.equal(head.body, '');
      });

      test('every page names the feeds and the OpenSearch description', async () => {
        // A 404 of the catalogue's too (one outside every route has a bare page of its own).
        for (const url of ['/', '/werke', '/werke/faust', '/personen/goethe', '/werke/gibt-es-nicht']) {
          const page = (await get(url)).body.replace(/\s+/g, ' ');
          assert.match(
            page,
            /<link rel="search" type="application\/opensearchdescription\+xml" href="\/katalog\/opensearch\.xml" title="Shelfmark" \/>/,
            url,
          );
          assert.match(
            page,
            /<link rel="alternate" type="application\/atom\+xml" href="\/katalog\/werke\.atom"/,
            url,
          );
        }
        const person = await get('/personen/goethe');
        assert.match(
          person.body.replace(/\s+/g, ' '),
          /<link rel="alternate" type="application\/atom\+xml" href="\/katalog\/personen\/goethe\.atom" \/>/,
        );
        assert.ok(
          String(person.headers.link).includes(
            `<${BASE}/personen/goethe.atom>; rel="alternate"; type="application/atom+xml"`,
          ),
        );
      });

      test('/opensearch.xml is a valid description whose templates search the works', async () => {
        const r = await get('/opensearch.xml');
        assert.equal(r.statusCode, 200);
        assert.equal(r.headers['content-type'], 'application/opensearchdescription+xml; charset=utf-8');
        assert.equal(r.headers['cache-control'], 'public, max-age=3600');
        const valid = await validateXml(r.body, OPENSEARCH_XSD);
        assert.ok(valid.ok, valid.errors);
        assert.equal(
          (await get('/opensearch.xml', { 'if-none-match': String(r.headers.etag) })).statusCode,
          304,
        );
        const templates = [...r.body.matchAll(/<Url type="([^"]+)"(?: method="get")? template="([^"]+)"/g)];
        assert.deepEqual(
          templates.map((m) => m[1]),
          ['text/html', 'application/json', 'application/xml'],
        );
        for (const [, type, template] of templates) {
          const url = template!.replace('{searchTerms}', encodeURIComponent('faust'));
          assert.ok(url.startsWith(`${BASE}/`), url);
          const found = await get(url.slice(BASE.length));
          assert.equal(found.statusCode, 200, url);
          assert.equal(found.headers['content-type']?.split(';')[0], type);
          assert.match(found.body, /Faust/);
        }
      });
    },
  );
}
