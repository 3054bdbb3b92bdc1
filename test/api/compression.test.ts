// Issue 11, item 4: gzip and brotli for text representations, Vary: Accept-Encoding, an ETag per
// coding (304 and If-Match still work with it), and %b logging the bytes actually sent.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A request with exactly these headers, its body as the bytes on the wire (not decoded). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const vary = (r: Raw) => (r.headers.vary ?? '').split(',').map((t) => t.trim().toLowerCase());

describe('compression', () => {
  let c: Catalogue;
  before(async () => {
    c = await startCatalogue();
  });
  after(() => c.stop());
  const url = (p: string) => c.origin + p;

  test('a list page: gzip and brotli decode to the identity body, each with its own ETag', async () => {
    const page = url('/werke.json?anzahl=100');
    const plain = await raw(page);
    const gzip = await raw(page, { 'accept-encoding': 'gzip' });
    const br = await raw(page, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gunzipSync(gzip.body).toString(), plain.body.toString());
    assert.equal(brotliDecompressSync(br.body).toString(), plain.body.toString());
    for (const r of [plain, gzip, br]) assert.ok(vary(r).includes('accept-encoding'), String(r.headers.vary));
    const tags = [plain, gzip, br].map((r) => r.headers.etag);
    assert.equal(new Set(tags).size, 3, tags.join(' '));
    assert.ok(
      gzip.body.byteLength * 3 < plain.body.byteLength,
      `${gzip.body.byteLength} of ${plain.body.byteLength}`,
    );
    assert.equal(Number(gzip.headers['content-length']), gzip.body.byteLength);
  });

  test('HTML, XML, problems, schemas and the stylesheet are compressed; small bodies are not', async () => {
    for (const p of [
      '/werke?anzahl=50',
      '/personen.xml',
      '/gibt-es-nicht',
      '/schema/works.xsd',
      '/static/shelfmark.css',
    ]) {
      const r = await raw(url(p), { 'accept-encoding': 'gzip' });
      assert.equal(r.headers['content-encoding'], 'gzip', p);
      assert.ok(gunzipSync(r.body).byteLength > 0, p);
    }
    const small = await raw(url('/personen?q=nichtvorhanden&format=json'), { 'accept-encoding': 'gzip' });
    assert.equal(small.headers['content-encoding'], undefined);
  });

  test('304 for the coded ETag keeps that ETag; HEAD tells the coded length', async () => {
    const page = url('/werke.html?anzahl=30');
    const first = await raw(page, { 'accept-encoding': 'br' });
    const again = await raw(page, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    assert.equal(again.status, 304);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.ok(vary(again).includes('accept-encoding'));
    const head = await raw(page, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(Number(head.headers['content-length']), first.body.byteLength);
    assert.equal(head.headers['content-encoding'], 'br');
  });

  test('a PUT with the If-Match a gzip client got is not refused as stale', async () => {
    const person = await raw(url('/personen/goethe.json'), { 'accept-encoding': 'gzip' });
    const etag = person.headers.etag!;
    assert.match(etag, /-gzip"$/);
    const body = gunzipSync(person.body).toString();
    const put = await c.send('PUT', '/personen/goethe.json', {
      headers: { authorization: STAFF_AUTHORIZATION, 'content-type': 'application/json', 'if-match': etag },
      body,
    });
    assert.equal(put.status, 200, await put.text());
  });

  test('%b logs the bytes sent on the wire: the compressed length', async () => {
    const target = '/werke.xml?anzahl=80&probe=compressed-b';
    const gzip = await raw(url(target), { 'accept-encoding': 'gzip' });
    const plainTarget = '/werke.xml?anzahl=80&probe=plain-b';
    const plain = await raw(url(plainTarget));
    const log = readFileSync(path.join(c.logDir, 'access.log'), 'utf8').split('\n');
    const bytesOf = (t: string) => {
      const line = log.find((l) => l.includes(`"GET ${t} HTTP/1.1"`));
      assert.ok(line, `no access line for ${t}`);
      return Number(/" 200 (\d+) /.exec(line)?.[1]);
    };
    assert.equal(bytesOf(target), gzip.body.byteLength);
    assert.equal(bytesOf(plainTarget), plain.body.byteLength);
    assert.ok(bytesOf(target) < bytesOf(plainTarget));
  });
});
