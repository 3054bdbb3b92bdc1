// Issue 11, item 10: PATCH with JSON Merge Patch (RFC 7396) for persons and works, through the
// PUT write flow: If-Match (412), 415 for another body type (Accept-Patch), 422 for an invalid
// result, the answer in the negotiated format; OPTIONS names Accept-Patch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, STAFF_AUTHORIZATION, type Catalogue } from '../acceptance/catalogue-server.ts';
import { jsonErrors } from '../kit/catalogue/validate.ts';

const MERGE_PATCH = 'application/merge-patch+json';

describe('PATCH with JSON Merge Patch', () => {
  let c: Catalogue;
  before(async () => {
    c = await startCatalogue();
  });
  after(() => c.stop());

  const patch = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    c.send('PATCH', path, {
      headers: { authorization: STAFF_AUTHORIZATION, 'content-type': MERGE_PATCH, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const etagOf = async (path: string) =>
    (await c.get(path, { authorization: STAFF_AUTHORIZATION })).headers.get('etag')!;

  test('OPTIONS names PATCH and Accept-Patch on persons and works, not on the collections', async () => {
    for (const path of ['/personen/goethe', '/werke/faust']) {
      const r = await c.send('OPTIONS', path);
      assert.equal(r.status, 204);
      assert.match(r.headers.get('allow') ?? '', /\bPATCH\b/);
      assert.equal(r.headers.get('accept-patch'), MERGE_PATCH);
    }
    const list = await c.send('OPTIONS', '/personen');
    assert.doesNotMatch(list.headers.get('allow') ?? '', /PATCH/);
    assert.equal(list.headers.get('accept-patch'), null);
  });

  test('a person: only the named member changes; the life dates stay as they were', async () => {
    const before = (await (await c.get('/personen/schiller.json')).json()) as Record<string, unknown>;
    const years = await (await c.get('/personen/schiller/lebensdaten.json')).text();
    const r = await patch(
      '/personen/schiller.json',
      { vorname: 'Fritz' },
      { 'if-match': await etagOf('/personen/schiller.json') },
    );
    assert.equal(r.status, 200, await r.clone().text());
    const after = (await r.json()) as Record<string, unknown>;
    assert.equal(jsonErrors('person', after), '');
    assert.deepEqual(after, { ...before, vorname: 'Fritz' });
    assert.equal(await (await c.get('/personen/schiller/lebensdaten.json')).text(), years);
    assert.match(years, /1759/);
  });

  test('a work: jahr changes, its persons stay; the answer is XML when XML was asked for', async () => {
    const before = (await (await c.get('/werke/faust.json')).json()) as { person: unknown[]; jahr: number };
    const r = await patch('/werke/faust', { jahr: 1808 }, { accept: 'application/xml' });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/xml/);
    assert.match(await r.text(), /<jahr>1808<\/jahr>/);
    const after = (await (await c.get('/werke/faust.json')).json()) as { person: unknown[]; jahr: number };
    assert.equal(after.jahr, 1808);
    assert.deepEqual(after.person, before.person);
  });

  test('If-Match: a stale tag is 412 and nothing changes', async () => {
    const stale = await etagOf('/personen/heine.json');
    assert.equal((await patch('/personen/heine', { vorname: 'Harry' })).status, 200);
    const r = await patch(
      '/personen/heine',
      { vorname: 'Heinrich' },
      { 'if-match': stale, accept: 'application/json' },
    );
    assert.equal(r.status, 412);
    assert.equal(((await r.json()) as { code: string }).code, 'SHELFMARK_PRECONDITION_FAILED');
    assert.equal(
      ((await (await c.get('/personen/heine.json')).json()) as { vorname: string }).vorname,
      'Harry',
    );
  });

  test('another body type is 415 with Accept-Patch; so is none', async () => {
    for (const type of ['application/json', 'application/xml', 'application/x-www-form-urlencoded']) {
      const r = await patch('/personen/goethe.json', '{"vorname":"X"}', { 'content-type': type });
      assert.equal(r.status, 415, type);
      assert.equal(r.headers.get('accept-patch'), MERGE_PATCH);
      assert.equal(((await r.json()) as { code: string }).code, 'SHELFMARK_UNSUPPORTED_MEDIA_TYPE');
    }
    const none = await c.send('PATCH', '/personen/goethe.json', {
      headers: { authorization: STAFF_AUTHORIZATION },
    });
    assert.equal(none.status, 415);
    assert.equal(none.headers.get('accept-patch'), MERGE_PATCH);
    const post = await c.send('POST', '/personen.json', {
      headers: { authorization: STAFF_AUTHORIZATION, 'content-type': MERGE_PATCH },
      body: '{"vorname":"A","nachname":"B"}',
    });
    assert.equal(post.status, 415, 'a merge patch is for PATCH only');
  });

  test('an invalid result is 422 naming the field; removing a required member too; nothing changes', async () => {
    const removed = await patch('/personen/goethe.json', { nachname: null });
    assert.equal(removed.status, 422);
    const problem = (await removed.json()) as { code: string; errors: { field: string }[] };
    assert.equal(problem.code, 'SHELFMARK_VALIDATION_FAILED');
    assert.deepEqual(
      problem.errors.map((e) => e.field),
      ['nachname'],
    );
    const wrong = await patch('/werke/faust.json', { jahr: 'früher' });
    assert.equal(wrong.status, 422);
    assert.equal((await patch('/werke/faust.json', '[1]')).status, 422, 'a patch that is no object');
    assert.equal((await patch('/werke/faust.json', '{"jahr":')).status, 400, 'malformed JSON');
    const goethe = (await (await c.get('/personen/goethe.json')).json()) as { nachname: string };
    assert.equal(goethe.nachname, 'von Goethe');
  });

  test('staff only; PATCH never creates (404); a deleted resource is 410', async () => {
    const anonymous = await c.send('PATCH', '/personen/goethe.json', {
      headers: { 'content-type': MERGE_PATCH },
      body: '{"vorname":"X"}',
    });
    assert.ok(anonymous.status === 401 || anonymous.status === 403, String(anonymous.status));
    assert.equal((await patch('/personen/niemand-da.json', { vorname: 'X' })).status, 404);
    // Not Faust: a copy of it is on loan, so it is not deleted (409, ADR 0058).
    assert.equal(
      (await c.send('DELETE', '/werke/der-process', { headers: { authorization: STAFF_AUTHORIZATION } }))
        .status,
      204,
    );
    assert.equal((await patch('/werke/der-process.json', { jahr: 1 })).status, 410);
  });
});
