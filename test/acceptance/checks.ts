// Acceptance checks of issue 2 written once and run against any started catalogue: SQLite in
// catalogue.test.ts, PostgreSQL in postgres.test.ts.
import assert from 'node:assert/strict';
import type { Catalogue } from './catalogue-server.ts';
import { STAFF_AUTHORIZATION } from './catalogue-server.ts';
import { linkHeaders, linkTarget } from './links.ts';
import { parseXml, type XmlElement } from './xml-tree.ts';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** GET that also asserts what every public GET must do: no cookie, nosniff. */
export async function getText(
  c: Catalogue,
  urlOrPath: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; body: string }> {
  const response = await c.get(urlOrPath, headers);
  const body = await response.text();
  assert.equal(response.headers.get('set-cookie'), null, `GET ${urlOrPath} sets no cookie`);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `GET ${urlOrPath}: nosniff`);
  return { response, body };
}

export async function getOk(c: Catalogue, urlOrPath: string, headers: Record<string, string> = {}) {
  const got = await getText(c, urlOrPath, headers);
  assert.equal(
    got.response.status,
    200,
    `GET ${urlOrPath} ${JSON.stringify(headers)}: ${got.body.slice(0, 300)}`,
  );
  return got;
}

const names = (element: XmlElement) => element.children.map((child) => child.name);

/** Person XML and JSON are exactly the shapes of docs/representations.md; the HTML shows what it lists. */
export async function checkPersonShapes(c: Catalogue, slug = 'goethe'): Promise<void> {
  const personUrl = c.url(`/personen/${slug}`);
  const xml = await getOk(c, `${personUrl}.xml`);
  assert.match(xml.response.headers.get('content-type') ?? '', /^application\/xml/);
  assert.ok(xml.body.startsWith(XML_DECLARATION + '\n<person>'), 'XML declaration, then <person>');
  const person = parseXml(xml.body);
  assert.equal(person.name, 'person');
  assert.deepEqual(person.attributes, {});
  assert.deepEqual(names(person), ['image', 'vorname', 'nachname', 'username', 'werke'], 'element order');
  const [image, vorname, nachname, username, werke] = person.children as XmlElement[];
  assert.deepEqual(Object.keys(image!.attributes), ['ref']);
  assert.equal(image!.children.length + image!.text.length, 0, '<image/> is empty');
  assert.ok(
    image!.attributes.ref!.startsWith(c.base + '/bilder/'),
    `absolute image URL ${image!.attributes.ref}`,
  );
  for (const field of [vorname, nachname, username]) {
    assert.deepEqual(field!.attributes, {});
    assert.equal(field!.children.length, 0);
  }
  assert.equal(vorname!.text, 'Johann Wolfgang');
  assert.equal(nachname!.text, 'von Goethe');
  assert.equal(username!.text, 'goethe');
  assert.ok(werke!.children.length > 0, 'goethe has works');
  for (const werk of werke!.children) {
    assert.equal(werk.name, 'werk');
    assert.deepEqual(Object.keys(werk.attributes), ['ref']);
    assert.match(werk.attributes.ref!, new RegExp(`^${escape(c.base)}/werke/[a-z0-9-]+$`));
    assert.equal(werk.children.length, 0);
    assert.notEqual(werk.text, '');
  }
  const xmlWorks = werke!.children.map((w) => ({ titel: w.text, url: w.attributes.ref! }));
  assert.ok(
    xmlWorks.some((w) => w.titel === 'Faust' && w.url === c.url('/werke/faust')),
    'Faust, linked absolutely',
  );

  const json = await getOk(c, `${personUrl}.json`);
  assert.match(json.response.headers.get('content-type') ?? '', /^application\/json/);
  const value = JSON.parse(json.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(value), ['image', 'vorname', 'nachname', 'werk'], 'key order, no username');
  assert.equal(value.image, image!.attributes.ref);
  assert.equal(value.vorname, 'Johann Wolfgang');
  assert.equal(value.nachname, 'von Goethe');
  const jsonWorks = value.werk as Record<string, unknown>[];
  for (const werk of jsonWorks) assert.deepEqual(Object.keys(werk), ['titel', 'url']);
  assert.deepEqual(jsonWorks, xmlWorks, 'the same works, in the same order, in XML and JSON');

  // The image URL is a real image.
  const picture = await getOk(c, value.image as string);
  assert.match(picture.response.headers.get('content-type') ?? '', /^image\//);

  const page = await getOk(c, personUrl, { accept: 'text/html' });
  const main = /<main[^>]*>([\s\S]*)<\/main\s*>/.exec(page.body)?.[1] ?? '';
  assert.match(main, /<h1>Johann Wolfgang von Goethe<\/h1>/, 'heading');
  const paragraph = /<p(?:\s[^>]*)?>((?:(?!<\/p\s*>)[\s\S])*<img[\s\S]*?)<\/p\s*>/.exec(main)?.[1] ?? '';
  const imagePath = new URL(value.image as string).pathname;
  assert.match(paragraph, new RegExp(`<img[^>]*\\ssrc="${escape(imagePath)}"`), 'a paragraph with the image');
  const text = paragraph.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
  assert.match(text, /Johann Wolfgang von Goethe/, 'full name');
  assert.match(text, new RegExp(`\\b${jsonWorks.length}\\b`), 'number of works');
  assert.match(text, /\bgoethe\b/, 'username');
  const after = main.slice(main.indexOf(paragraph) + paragraph.length);
  const list = /<(ul|ol)[^>]*>([\s\S]*?)<\/\1\s*>/.exec(after)?.[2] ?? '';
  const items = [...list.matchAll(/<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/g)].map((m) => ({
    href: m[1]!,
    text: m[2]!
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  }));
  assert.deepEqual(
    items.map((i) => i.href),
    jsonWorks.map((w) => new URL(w.url as string).pathname),
    'a list of links to the works, root-relative',
  );
  items.forEach((item, i) => {
    const titel = htmlEscape(String(jsonWorks[i]!.titel));
    assert.ok(item.text.includes(titel), `link text shows the title ${titel}: ${item.text}`);
    assert.ok(item.text.includes(item.href), `link text shows the address ${item.href}: ${item.text}`);
  });
}

/** The script-style URL answers the readable URL's representation, plus Link rel=canonical. */
export async function checkScriptUrls(c: Catalogue): Promise<void> {
  const goethe = await c.idOf('persons', 'goethe');
  const faust = await c.idOf('works', 'faust');
  const pairs: [string, string][] = [
    [`/person?id=${goethe}`, '/personen/goethe'],
    ['/person?slug=goethe', '/personen/goethe'],
    [`/werk?id=${faust}`, '/werke/faust'],
  ];
  const variants: [string, Record<string, string>][] = [
    ['HTML (no Accept)', {}],
    ['HTML', { accept: 'text/html' }],
    ['XML', { accept: 'application/xml' }],
    ['JSON', { accept: 'application/json' }],
  ];
  for (const [script, readable] of pairs) {
    for (const [name, headers] of variants) {
      const a = await getOk(c, script, headers);
      const b = await getOk(c, readable, headers);
      assert.equal(a.body, b.body, `${script} and ${readable} give the same ${name} body`);
      assert.equal(a.response.headers.get('etag'), b.response.headers.get('etag'), `${name} ETag`);
      assert.equal(a.response.headers.get('content-type'), b.response.headers.get('content-type'));
      assert.equal(
        linkTarget(a.response.headers.get('link'), 'canonical'),
        c.url(readable),
        `${script} sends Link rel=canonical`,
      );
      assert.equal(
        linkTarget(b.response.headers.get('link'), 'canonical'),
        undefined,
        `${readable} is canonical itself`,
      );
    }
    for (const format of ['xml', 'json'] as const) {
      const a = await getOk(c, `${script}&format=${format}`);
      const b = await getOk(c, `${readable}.${format}`);
      assert.equal(a.body, b.body, `${script}&format=${format} = ${readable}.${format}`);
    }
  }
}

/** `?q=faust` finds Faust in every format; a word nobody wrote finds nothing. */
export async function checkSearch(c: Catalogue): Promise<void> {
  const faust = c.url('/werke/faust');
  const json = JSON.parse((await getOk(c, '/werke.json?q=faust')).body) as { werk: { url: string }[] };
  assert.ok(
    json.werk.some((w) => w.url === faust),
    'JSON search result has Faust',
  );
  const xml = parseXml((await getOk(c, '/werke.xml?q=faust')).body);
  assert.ok(
    xml.children.some((w) => w.name === 'werk' && w.attributes.ref === faust),
    'XML search result has Faust',
  );
  const html = (await getOk(c, '/werke?q=faust', { accept: 'text/html' })).body;
  assert.ok(html.includes(`href="${new URL(faust).pathname}"`), 'HTML search result links Faust');
  const upper = JSON.parse((await getOk(c, '/werke.json?q=FAUST')).body) as { werk: { url: string }[] };
  assert.ok(
    upper.werk.some((w) => w.url === faust),
    'search ignores case',
  );
  const none = JSON.parse((await getOk(c, '/werke.json?q=qwertzuiopasdf')).body) as { werk: unknown[] };
  assert.deepEqual(none.werk, [], 'a word in no title finds nothing');
}

export type PagingRun = { visited: string[]; pages: number; inserted: string[] };

/**
 * Follows Link rel="next" from /werke.json to the end, collecting every work URL. Before each
 * following page, `between` may change the catalogue (insert works).
 */
export async function pageThroughWorks(
  c: Catalogue,
  between?: (lastSeenTitle: string, page: number) => Promise<void>,
): Promise<PagingRun> {
  const visited: string[] = [];
  let next: string | undefined = c.url('/werke.json');
  let pages = 0;
  while (next) {
    const { response, body } = await getOk(c, next, { accept: 'application/json' });
    const value = JSON.parse(body) as { werk: { titel: string; url: string }[]; naechste?: string };
    pages += 1;
    assert.ok(pages < 1000, 'paging ends');
    visited.push(...value.werk.map((w) => w.url));
    const header = linkTarget(response.headers.get('link'), 'next');
    assert.equal(value.naechste, header, 'the body and the Link header name the same next page');
    next = header;
    if (next) assert.ok(linkHeaders(response.headers.get('link')).length > 0);
    const last = value.werk.at(-1);
    if (next && between && last) await between(last.titel, pages);
  }
  return { visited, pages, inserted: [] };
}

/** Creates a work through the API (staff Basic credentials); returns its public URL. */
export async function createWork(c: Catalogue, titel: string): Promise<string> {
  const response = await c.send('POST', '/werke', {
    headers: {
      authorization: STAFF_AUTHORIZATION,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({ titel, jahr: 2000, exemplare: 1, person: ['goethe'] }),
  });
  const text = await response.text();
  assert.equal(response.status, 201, `POST /werke ${titel}: ${text.slice(0, 300)}`);
  const location = response.headers.get('location');
  if (!location?.startsWith(c.base + '/werke/')) assert.fail(`absolute Location: ${location}`);
  return location;
}

/**
 * Pages through every work while works are inserted between the requests: before the current
 * position, after it, and with the same title as the last work seen (the tie is broken by id).
 * Every work that existed before is visited exactly once; no work is visited twice; works
 * inserted after the position are visited.
 */
export async function checkPagingWithInserts(c: Catalogue): Promise<void> {
  for (const cursor of ['nach=kaputt', 'vor=kaputt', `nach=${Buffer.from('{}').toString('base64url')}`]) {
    const { response } = await getText(c, `/werke?${cursor}`, { accept: 'application/json' });
    assert.equal(response.status, 400, `a cursor the server did not write (${cursor}) is the client's error`);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  }

  const before = await pageThroughWorks(c);
  assert.ok(before.pages > 2, `several pages (${before.pages})`);
  assert.equal(new Set(before.visited).size, before.visited.length, 'no work twice on a quiet catalogue');

  const ahead: string[] = [];
  const behind: string[] = [];
  const run = await pageThroughWorks(c, async (lastTitle, page) => {
    behind.push(await createWork(c, `Aaa eingeschoben ${page}`));
    ahead.push(await createWork(c, lastTitle));
    ahead.push(await createWork(c, `Zzz angehängt ${page}`));
  });
  const counts = new Map<string, number>();
  for (const url of run.visited) counts.set(url, (counts.get(url) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([url]) => url);
  assert.deepEqual(twice, [], 'no work visited twice');
  const missed = before.visited.filter((url) => !counts.has(url));
  assert.deepEqual(missed, [], 'every work that existed before is visited');
  const missedAhead = ahead.filter((url) => !counts.has(url));
  assert.deepEqual(missedAhead, [], 'works inserted after the current position are visited');
  const unexpected = run.visited.filter(
    (url) => !before.visited.includes(url) && !ahead.includes(url) && !behind.includes(url),
  );
  assert.deepEqual(unexpected, [], 'nothing but real works');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function htmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
