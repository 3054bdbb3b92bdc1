// Issue 2 acceptance: X-Forwarded-Proto/-Host change the absolute links only when the peer is a
// trusted proxy (SHELFMARK_TRUST_PROXY). The test client connects from 127.0.0.1: one server
// trusts 127.0.0.1, one trusts nobody, one trusts another address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, type Catalogue } from './catalogue-server.ts';
import { jsonLinks, linkHeaders, xmlLinks } from './links.ts';

const FORWARDED = {
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'proxy.example',
  'x-forwarded-for': '203.0.113.7',
};

/** Every absolute link of goethe's person in XML, JSON (body and Link headers) and HTML (canonical). */
async function absoluteLinks(c: Catalogue, headers: Record<string, string>): Promise<string[]> {
  const links: string[] = [];
  for (const format of ['xml', 'json'] as const) {
    const response = await c.get(`/personen/goethe.${format}`, headers);
    const body = await response.text();
    assert.equal(response.status, 200);
    links.push(...linkHeaders(response.headers.get('link')).map((l) => l.url));
    links.push(...(format === 'xml' ? xmlLinks(body) : jsonLinks(JSON.parse(body))).map((l) => l.url));
  }
  const page = await c.get('/person?slug=goethe', { ...headers, accept: 'text/html' });
  const html = await page.text();
  links.push(...linkHeaders(page.headers.get('link')).map((l) => l.url));
  links.push(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? 'no canonical link');
  assert.ok(links.length > 10, `links found: ${links.length}`);
  return links;
}

const outside = (links: string[], prefix: string) => links.filter((url) => !url.startsWith(prefix));

describe('forwarded headers and trusted proxies', () => {
  let trusting: Catalogue;
  let trustingNobody: Catalogue;
  let trustingAnother: Catalogue;
  before(async () => {
    [trusting, trustingNobody, trustingAnother] = await Promise.all([
      startCatalogue({ trustProxy: '127.0.0.1' }),
      startCatalogue(),
      startCatalogue({ trustProxy: '10.1.2.3' }),
    ]);
  });
  after(() => Promise.all([trusting?.stop(), trustingNobody?.stop(), trustingAnother?.stop()]));

  test('from a trusted proxy, links use the forwarded scheme and host', async () => {
    const links = await absoluteLinks(trusting, FORWARDED);
    assert.deepEqual(outside(links, 'https://proxy.example/'), []);
    assert.ok(links.includes('https://proxy.example/werke/faust'));
  });

  test('from a trusted proxy without forwarded headers, links use the configured base', async () => {
    const links = await absoluteLinks(trusting, {});
    assert.deepEqual(outside(links, `${trusting.base}/`), []);
  });

  test('from an untrusted peer, forwarded headers change nothing', async () => {
    for (const c of [trustingNobody, trustingAnother]) {
      const links = await absoluteLinks(c, FORWARDED);
      assert.deepEqual(outside(links, `${c.base}/`), []);
      assert.deepEqual(links, await absoluteLinks(c, {}), 'the same links as without the headers');
    }
  });
});
