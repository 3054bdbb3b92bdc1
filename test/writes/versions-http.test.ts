// Representation versions over HTTP (ADR 0024), on each engine (SQLite always, PostgreSQL with
// SHELFMARK_TEST_DATABASE_URL): three servers on one database, as `shelfmark serve` runs them
// (startServer, each with its own representation cache, like separate processes or workers),
// sharing one clock (ADR 0072) that the test moves instead of waiting for Last-Modified's
// second to be over. After every write — POST, PUT, DELETE, a borrow and a return that change
// `verfuegbar`, a work added to a person — each representation showing the change answers the
// old ETag (If-None-Match) and the old Last-Modified (If-Modified-Since) with 200 and the new
// body, from every server. And GET → PUT → GET of every JSON and XML representation, and of
// every staff edit form as a browser submits it, changes nothing and keeps the URL; a person's
// PUT leaves its life dates (their own resource, ADR 0026) as they were. Copies are round-tripped
// in every state their representations show: on the shelf, lent (due date and, to staff, the
// borrower) and missing (the form's checkbox ticked).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { catalogueTestTargets } from '../kit/catalogue/targets.ts';
import { freshSchema, pgTestUrl } from '../support/pg.ts';
import { startCatalogue } from '../acceptance/catalogue-server.ts';
import { formFields } from '../support/html-form.ts';
import { logIn } from '../access/server.ts';

const STAFF = `Basic ${Buffer.from('personal:personal').toString('base64')}`;
const TYPES = { json: 'application/json', xml: 'application/xml' } as const;

interface Seen {
  readonly etag: string;
  readonly lastModified: string;
  readonly body: string;
}

/** The servers' one clock: starts at the real time, moved only by the test. */
let now = Date.now();
/** Past the current second, so the version written in it gets its Last-Modified (ADR 0024). */
const nextSecond = (): void => {
  now += 1100;
};

function request(base: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  return fetch(base + path, {
    method,
    body,
    headers: { authorization: STAFF, ...headers },
    redirect: 'manual',
  });
}

/** GET with both validators; Last-Modified is sent once its second is over (ADR 0024), so move the clock past it. */
async function seen(base: string, path: string, format: keyof typeof TYPES = 'json'): Promise<Seen> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await request(base, 'GET', path, { accept: TYPES[format] });
    assert.equal(response.status, 200, path);
    const body = await response.text();
    const lastModified = response.headers.get('last-modified');
    if (lastModified !== null) return { etag: response.headers.get('etag') ?? '', lastModified, body };
    nextSecond();
  }
  throw new Error(`${path} never sent Last-Modified`);
}

/** Both old validators get 200 with a body unlike the old one, from every base. */
async function changed(bases: readonly string[], path: string, old: Seen, why: string): Promise<string> {
  let latest = '';
  for (const base of bases) {
    const conditions: Record<string, string>[] = [
      { 'if-none-match': old.etag },
      { 'if-modified-since': old.lastModified },
    ];
    for (const header of conditions) {
      const response = await request(base, 'GET', path, { accept: TYPES.json, ...header });
      assert.equal(response.status, 200, `${why}: ${path} ${JSON.stringify(header)} on ${base}`);
      latest = await response.text();
      assert.notEqual(latest, old.body, `${why}: ${path} shows the change`);
      assert.notEqual(response.headers.get('etag'), old.etag, `${why}: new ETag`);
    }
  }
  return latest;
}

/** Copies on the shelf, lent and missing (made so once per server): their paths. */
const copyStates = new Map<string, Promise<string[]>>();
function copiesInEveryState(base: string): Promise<string[]> {
  let paths = copyStates.get(base);
  if (!paths) {
    paths = (async () => {
      const json = { accept: TYPES.json, 'content-type': TYPES.json };
      const borrowed = await request(
        base,
        'POST',
        '/ausleihen/1',
        json,
        JSON.stringify({ werk: 'effi-briest' }),
      );
      assert.equal(borrowed.status, 201, await borrowed.clone().text());
      const lent = new URL(((await borrowed.json()) as { exemplar: { url: string } }).exemplar.url).pathname;
      const missing = '/werke/faust/exemplare/2';
      const copy = JSON.parse((await seen(base, missing)).body) as Record<string, unknown>;
      const marked = await request(base, 'PUT', missing, json, JSON.stringify({ ...copy, vermisst: true }));
      assert.equal(marked.status, 200, await marked.text());
      assert.match((await seen(base, lent)).body, /"status":"ausgeliehen"/);
      assert.match((await seen(base, missing)).body, /"status":"vermisst","vermisstSeit"/);
      return ['/werke/faust/exemplare/1', lent, missing];
    })();
    copyStates.set(base, paths);
  }
  return paths;
}

for (const target of catalogueTestTargets(pgTestUrl())) {
  describe(`representation versions over HTTP on ${target.dialect}`, { skip: target.skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelfmark-versions-'));
    const stops: (() => Promise<void>)[] = [];
    let dropSchema: (() => Promise<void>) | undefined;
    let bases: string[] = [];

    before(async () => {
      let databaseUrl = join(dir, 'shelfmark.db');
      if (target.dialect === 'postgres') {
        const schema = await freshSchema();
        databaseUrl = schema.url;
        dropSchema = schema.drop;
      }
      // The first server loads the demo; the others share its database and its public base URL
      // (representations hold absolute URLs: one site, one set of bodies).
      let publicBase: string | undefined;
      for (const demo of [true, false, false]) {
        const server = await startCatalogue({ databaseUrl, demo, baseUrl: publicBase, clock: () => now });
        publicBase ??= server.base;
        stops.push(() => server.stop());
        bases.push(server.origin);
      }
      // The demo was written by the system clock while the first server started: from it on, this one.
      now = Math.max(now, Date.now());
    });
    after(async () => {
      for (const stop of stops) await stop();
      await dropSchema?.();
      rmSync(dir, { recursive: true, force: true });
      bases = [];
    });

    test('every write gives each representation showing it a new ETag and Last-Modified', async () => {
      const [a, b] = bases as [string, string];
      const json = (base: string, method: string, path: string, value?: unknown) =>
        request(
          base,
          method,
          path,
          { accept: TYPES.json, 'content-type': TYPES.json },
          value === undefined ? undefined : JSON.stringify(value),
        );
      const person = '/personen/goethe';

      // A work added to a person (POST on one process; read on the other and on both workers).
      let before = await seen(b, person);
      const posted = await json(a, 'POST', '/werke', {
        titel: 'Versionen',
        exemplare: 1,
        person: ['goethe'],
      });
      assert.equal(posted.status, 201);
      const work = new URL(posted.headers.get('location') ?? '').pathname;
      assert.match(await changed(bases, person, before, 'work added'), /Versionen/);

      // A borrow and a return change `verfuegbar`.
      let workBefore = await seen(a, work);
      const borrowed = await json(b, 'POST', '/ausleihen/1', { werk: work });
      assert.equal(borrowed.status, 201, await borrowed.text());
      assert.match(await changed(bases, work, workBefore, 'borrowed'), /"verfuegbar":0/);
      workBefore = await seen(b, work);
      const loan = new URL(borrowed.headers.get('location') ?? '').pathname;
      assert.equal((await request(a, 'DELETE', loan, { accept: TYPES.json })).status, 204);
      assert.match(await changed(bases, work, workBefore, 'returned'), /"verfuegbar":1/);

      // A person's new name is shown by its works; the person stays at its URL.
      workBefore = await seen(a, work);
      before = await seen(a, person);
      const current = JSON.parse(before.body) as Record<string, unknown>;
      const put = await json(b, 'PUT', person, { ...current, vorname: 'Johann W.' });
      assert.equal(put.status, 200);
      assert.equal((await json(a, 'GET', person)).status, 200, 'PUT does not move the person');
      assert.match(await changed(bases, work, workBefore, 'person renamed'), /Johann W\./);

      // Two writes within one second: both change the ETag, neither leaves a wrong 304.
      before = await seen(a, person);
      assert.equal((await json(a, 'PUT', person, { ...current, vorname: 'J.' })).status, 200);
      const between = await request(b, 'GET', person, { accept: TYPES.json });
      const betweenSeen = {
        etag: between.headers.get('etag') ?? '',
        lastModified: between.headers.get('last-modified') ?? before.lastModified,
        body: await between.text(),
      };
      assert.equal((await json(b, 'PUT', person, current)).status, 200);
      await changed(bases, person, betweenSeen, 'second write within a second');

      // A work deleted: its person no longer shows it.
      before = await seen(b, person);
      assert.equal((await request(a, 'DELETE', work, { accept: TYPES.json })).status, 204);
      assert.doesNotMatch(await changed(bases, person, before, 'work deleted'), /Versionen/);
    });

    test('GET → PUT → GET of JSON and XML changes nothing and keeps the URL', async () => {
      const [a, b] = bases as [string, string];
      const lifeDates = async () => (await seen(a, '/personen/goethe/lebensdaten')).body;
      const datesBefore = await lifeDates();
      assert.match(datesBefore, /"geboren":1749,"gestorben":1832/);
      for (const path of [
        '/personen/goethe',
        '/personen/anna-berger',
        '/werke/faust',
        '/werke/effi-briest',
        '/personen/goethe/lebensdaten',
        '/personen/anna-berger/lebensdaten',
        ...(await copiesInEveryState(a)),
      ]) {
        for (const format of ['json', 'xml'] as const) {
          const first = await seen(a, path, format);
          const put = await request(
            b,
            'PUT',
            path,
            { accept: TYPES[format], 'content-type': TYPES[format], 'if-match': first.etag },
            first.body,
          );
          assert.equal(put.status, 200, `${path}.${format}: ${await put.text()}`);
          const again = await request(a, 'GET', path, { accept: TYPES[format] });
          assert.equal(again.status, 200);
          assert.equal(await again.text(), first.body, `${path}.${format}`);
          assert.equal(
            again.headers.get('etag'),
            first.etag,
            `${path}.${format}: same representation, same ETag`,
          );
        }
      }
      assert.equal(await lifeDates(), datesBefore, 'the person PUTs kept the life dates');
    });

    test('GET → PUT → GET of every staff edit form, submitted as a browser does, changes nothing', async () => {
      const [a, b] = bases as [string, string];
      // A staff session (cookie, CSRF token in the form) as a browser has it after logging in;
      // the browser is on the public base (a's), which the origin check compares with.
      const session = await logIn(a, 'personal');
      for (const path of [
        '/personen/goethe',
        '/personen/anna-berger',
        '/werke/faust',
        '/werke/effi-briest',
        '/personen/goethe/lebensdaten',
        '/personen/anna-berger/lebensdaten',
        ...(await copiesInEveryState(a)),
      ]) {
        const before = { json: await seen(b, path, 'json'), xml: await seen(b, path, 'xml') };
        const page = await fetch(a + path, { headers: { cookie: session.cookie, accept: 'text/html' } });
        assert.equal(page.status, 200, path);
        const fields = formFields(await page.text(), path, 'write');
        assert.deepEqual(
          fields.slice(0, 3).map(([name]) => name),
          ['_method', '_csrf', '_version'],
          `${path}: the edit form's hidden fields`,
        );
        const submitted = await fetch(a + path, {
          method: 'POST',
          headers: {
            cookie: session.cookie,
            origin: a,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'text/html',
          },
          body: new URLSearchParams(fields).toString(),
          redirect: 'manual',
        });
        assert.equal(submitted.status, 303, `${path}: ${await submitted.text()}`);
        assert.equal(new URL(submitted.headers.get('location') ?? '', a).pathname, path);
        for (const format of ['json', 'xml'] as const) {
          const again = await request(b, 'GET', path, { accept: TYPES[format] });
          assert.equal(await again.text(), before[format].body, `${path}.${format} after the form`);
          assert.equal(again.headers.get('etag'), before[format].etag, `${path}.${format}: same ETag`);
        }
      }
    });
  });
}
