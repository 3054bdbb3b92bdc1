// Issue 11, item 9: paging links keep the format the client chose (suffix or ?format=), in the
// body (JSON, XML, HTML <link>/<a>) and the Link header; every list says how long it is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, type Catalogue } from '../acceptance/catalogue-server.ts';
import { jsonErrors, xmlErrors } from '../kit/catalogue/validate.ts';
import { skipUnless } from '../support/requirements.ts';

describe('paging keeps the chosen format', () => {
  let c: Catalogue;
  before(async () => {
    c = await startCatalogue();
  });
  after(() => c.stop());

  test('JSON by suffix: every next link is .json, the Link header too; the pages add up to gesamt', async () => {
    let next: string | undefined = c.url('/werke.json?anzahl=40');
    const seen: string[] = [];
    let total: number | undefined;
    let pages = 0;
    while (next) {
      const response = await c.get(next);
      assert.equal(response.status, 200, next);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const value = (await response.json()) as {
        werk: { url: string }[];
        naechste?: string;
        gesamt?: number;
      };
      assert.equal(jsonErrors('works', value), '');
      total ??= value.gesamt;
      assert.equal(value.gesamt, total, 'the same total on every page');
      seen.push(...value.werk.map((w) => w.url));
      if (value.naechste !== undefined) {
        assert.match(new URL(value.naechste).pathname, /\/werke\.json$/, value.naechste);
        assert.match(response.headers.get('link') ?? '', /\/werke\.json\?nach=[^>]*>; rel="next"/);
      }
      next = value.naechste;
      pages += 1;
    }
    assert.ok(pages > 2, `${pages} pages`);
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, seen.length);
  });

  test('XML by ?format=: next and previous keep format=xml', skipUnless('xmllint'), async () => {
    const first = await c.get('/personen?format=xml&anzahl=10');
    const body = await first.text();
    assert.equal(await xmlErrors('persons', body.replace(/^<\?xml[^>]*>\n?/, '')), '');
    assert.match(body, /<gesamt>\d+<\/gesamt>/);
    const next = /<naechste ref="([^"]+)"/.exec(body)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(next, body);
    assert.equal(new URL(next).searchParams.get('format'), 'xml');
    const second = await c.get(next);
    assert.match(second.headers.get('content-type') ?? '', /^application\/xml/);
    const secondBody = await second.text();
    const prev = /<vorige ref="([^"]+)"/.exec(secondBody)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(prev);
    assert.equal(new URL(prev).searchParams.get('format'), 'xml');
    assert.match(second.headers.get('link') ?? '', /format=xml>; rel="prev"/);
  });

  test('HTML by suffix keeps .html in <link rel=next> and the page navigation', async () => {
    const body = await (await c.get('/werke.html?anzahl=10')).text();
    assert.match(body, /<link rel="next" href="[^"]*\/werke\.html\?nach=/);
    assert.match(body, /<a rel="next" href="[^"]*\/werke\.html\?nach=/);
    assert.match(body, /<p class="total">\d+ insgesamt<\/p>/);
  });

  test('a format chosen by Accept is not written into the links (the client sends Accept again)', async () => {
    const response = await c.get('/werke?anzahl=10', { accept: 'application/json' });
    const value = (await response.json()) as { naechste: string };
    assert.equal(new URL(value.naechste).pathname, '/werke');
    assert.equal(new URL(value.naechste).searchParams.get('format'), null);
  });

  test('a search gives its total too', async () => {
    const value = (await (await c.get('/werke.json?q=faust')).json()) as { gesamt?: number; werk: unknown[] };
    assert.equal(value.gesamt, value.werk.length);
    assert.ok(value.werk.length > 0);
  });
});
