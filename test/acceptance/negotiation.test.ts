// Issue 2 acceptance: choosing the representation (docs/representations.md) for every public resource, over
// real HTTP with exactly the headers a client sends: suffixes, ?format=, Accept with q-values,
// wildcards, the Accept headers of real browsers and curl, unacceptable and garbage headers, a
// 100 KB header (refused with 400 like Apache's LimitRequestFieldSize, ADR 0012). Every body
// received is then validated: XML/JSON against the schema their Link rel=describedby names,
// HTML with the Nu HTML Checker.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { skipUnless } from '../support/requirements.ts';
import { startCatalogue, type Catalogue } from './catalogue-server.ts';
import { header, rawGet, tokens, type RawResponse } from './raw-get.ts';
import { formatOf, htmlProblems, received, schemaProblems, type Received } from './validity.ts';

type Format = 'html' | 'xml' | 'json';
const TYPES: Record<Format, RegExp> = {
  html: /^text\/html; charset=utf-8$/,
  xml: /^application\/xml; charset=utf-8$/,
  json: /^application\/json; charset=utf-8$/,
};

/** Readable path → the path the suffixes attach to (the home's suffix form is /index.*). */
const RESOURCES: [path: string, suffixBase: string][] = [
  ['/', '/index'],
  ['/personen', '/personen'],
  ['/personen/goethe', '/personen/goethe'],
  ['/werke', '/werke'],
  ['/werke/faust', '/werke/faust'],
];

const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FIREFOX_OLDER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const SAFARI = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CURL = '*/*';

/** Accept header → the format the server must send, or 406. */
const ACCEPT_CASES: [accept: string, expected: Format | 406][] = [
  ['text/html', 'html'],
  ['application/xhtml+xml', 'html'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['application/json', 'json'],
  ['application/json;q=0.5, application/xml;q=0.9', 'xml'],
  ['application/xml;q=0.5, application/json', 'json'],
  ['text/html;q=0.1, application/json;q=0.2', 'json'],
  ['text/html;q=0, application/json', 'json'],
  ['*/*', 'html'],
  [CHROME, 'html'],
  [FIREFOX, 'html'],
  [FIREFOX_OLDER, 'html'],
  [SAFARI, 'html'],
  [CURL, 'html'],
  ['application/xml;q=0.9,*/*;q=0.8', 'xml'],
  ['text/html;q=0', 406],
  ['*/*;q=0', 406],
  ['image/png', 406],
  ['garbage', 406],
  ['application/json; charset=latin1', 406],
  // Long but within the 8190-byte field limit: still negotiated.
  ['text/html,'.repeat(700).slice(0, -1), 'html'],
];

/**
 * A body with its paging links made format-free: a list's `next`/`prev` keep a format chosen by
 * suffix (`/werke.json?nach=…`) or `?format=` (`…&format=xml`; ADR 0025), so the bodies of the
 * three ways to ask differ in exactly these links.
 */
function samePage(body: string): string {
  // A link that keeps the format (paging, facets, ADR 0025 and 0094) says so by suffix or by
  // ?format=, as the request did: the rest of the page is the same.
  return body
    .replace(/(\/(?:personen|werke))\.(?:html|xml|json)(?=[?"<])/g, '$1')
    .replace(/(?:&amp;|&)format=(?:html|xml|json)(?=["<])/g, '')
    .replace(/\?format=(?:html|xml|json)(?=["<])/g, '');
}

describe('choosing the representation', () => {
  let c: Catalogue;
  const bodies: Received[] = [];
  const get = async (path: string, headers: Record<string, string> = {}): Promise<RawResponse> => {
    const response = await rawGet(c.origin + path, headers);
    assert.equal(header(response, 'set-cookie'), '', `GET ${path} sets no cookie`);
    assert.equal(header(response, 'x-content-type-options'), 'nosniff', `GET ${path}: nosniff`);
    const label = `GET ${path} ${JSON.stringify(headers).slice(0, 120)}`;
    bodies.push(received(label, header(response, 'content-type'), header(response, 'link'), response.body));
    return response;
  };
  /** The status, media type and body shape of a representation in `format`. */
  const assertFormat = (response: RawResponse, format: Format, what: string): void => {
    assert.equal(response.status, 200, `${what}: status`);
    assert.match(header(response, 'content-type'), TYPES[format], `${what}: Content-Type`);
    if (format === 'html') assert.match(response.body, /^<!DOCTYPE html>/i, `${what}: HTML`);
    if (format === 'xml')
      assert.match(response.body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n</, `${what}: XML`);
    if (format === 'json') assert.doesNotThrow(() => JSON.parse(response.body), `${what}: JSON`);
  };

  before(async () => {
    c = await startCatalogue();
  });
  after(() => c?.stop());

  for (const [path, suffixBase] of RESOURCES) {
    test(`${path}: suffixes and ?format= choose the format; no Vary: Accept`, async () => {
      for (const format of ['html', 'xml', 'json'] as const) {
        const bySuffix = await get(`${suffixBase}.${format}`, { accept: 'application/json' });
        assertFormat(bySuffix, format, `${suffixBase}.${format}`);
        assert.ok(!tokens(bySuffix, 'vary').includes('accept'), `${suffixBase}.${format}: no Vary: Accept`);
        const location = header(bySuffix, 'content-location');
        assert.ok(
          location === '' || location === `${suffixBase}.${format}`,
          `${suffixBase}.${format}: ${location}`,
        );

        const byQuery = await get(`${path}?format=${format}`, { accept: 'image/png' });
        assertFormat(byQuery, format, `${path}?format=${format}`);
        assert.ok(
          !tokens(byQuery, 'vary').includes('accept'),
          `${path}?format=${format}: Accept plays no part`,
        );
        assert.equal(
          samePage(byQuery.body),
          samePage(bySuffix.body),
          `${path}?format=${format} is ${suffixBase}.${format}`,
        );
      }
      const suffixWins = await get(`${suffixBase}.json?format=xml`, { accept: 'text/html' });
      assertFormat(suffixWins, 'json', 'the suffix beats ?format= and Accept');
      assert.equal((await get(`${path}?format=yaml`)).status, 404, 'an unknown ?format= is 404');
      assert.equal((await get(`${suffixBase}.yaml`)).status, 404, 'an unknown suffix is 404');
    });

    test(`${path}: the Accept header decides, with Vary: Accept and Content-Location`, async () => {
      const none = await get(path);
      assertFormat(none, 'html', `${path} without Accept`);
      assert.ok(tokens(none, 'vary').includes('accept'), `${path} without Accept: Vary: Accept`);
      assert.equal(header(none, 'content-location'), `${suffixBase}.html`);
      const suffixBodies = new Map<Format, string>();
      for (const format of ['html', 'xml', 'json'] as const)
        suffixBodies.set(format, (await get(`${suffixBase}.${format}`)).body);

      for (const [accept, expected] of ACCEPT_CASES) {
        const what = `${path} Accept: ${accept.slice(0, 80)}`;
        const response = await get(path, { accept });
        assert.ok(tokens(response, 'vary').includes('accept'), `${what}: Vary: Accept`);
        if (expected === 406) {
          assert.equal(response.status, 406, `${what}: 406`);
          assert.equal(header(response, 'content-location'), '', `${what}: no Content-Location`);
          // The body lists the available representations as links: root-relative in HTML
          // (docs/representations.md), absolute in XML and JSON.
          for (const format of ['html', 'xml', 'json']) {
            const target = new URL(c.url(`${suffixBase}.${format}`));
            const link =
              formatOf(header(response, 'content-type')) === 'html'
                ? `href="${target.pathname}"`
                : target.href;
            assert.ok(response.body.includes(link), `${what}: the 406 body links ${suffixBase}.${format}`);
          }
          continue;
        }
        assertFormat(response, expected, what);
        assert.equal(
          header(response, 'content-location'),
          `${suffixBase}.${expected}`,
          `${what}: Content-Location`,
        );
        assert.equal(
          samePage(response.body),
          samePage(suffixBodies.get(expected) ?? ''),
          `${what}: the same representation as the suffix URL`,
        );
      }
    });
  }

  test('a 100 KB Accept header is refused with 400, as Apache refuses an oversized field', async () => {
    const response = await rawGet(c.origin + '/werke/faust', { accept: 'text/html,'.repeat(10_240) });
    assert.equal(response.status, 400);
    assert.match(response.body, /<title>400 Bad Request<\/title>/);
    assert.equal(header(response, 'set-cookie'), '');
    // A small request on a new connection is served as usual afterwards.
    assert.equal((await rawGet(c.origin + '/werke/faust', { accept: 'application/json' })).status, 200);
  });

  test('every XML and JSON body received is valid against the schema it names', async (t) => {
    const check = skipUnless('xmllint');
    if (check.skip) return t.skip(check.skip);
    assert.ok(bodies.length > 100, `bodies were collected (${bodies.length})`);
    const problems = await schemaProblems(bodies, async (url) => (await rawGet(c.local(url))).body);
    assert.deepEqual(problems, []);
  });

  test('every distinct HTML page received passes the Nu HTML Checker', async (t) => {
    const check = skipUnless('java');
    if (check.skip) return t.skip(check.skip);
    const distinct = new Map<string, Received>();
    for (const body of bodies) if (!distinct.has(body.body)) distinct.set(body.body, body);
    const problems = await htmlProblems([...distinct.values()]);
    assert.deepEqual(problems, []);
  });
});
