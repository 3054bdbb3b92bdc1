// Representations that change with the clock, not with a write (ADR 0067), over a real server
// (startServer, as `shelfmark serve` runs it, its representation cache on) on SQLite and on
// PostgreSQL, whose one clock (ADR 0072) the test moves instead of waiting. A copy kept for a
// hold changes the moment the hold runs out: free when nobody waits, else kept for the next in
// the queue; the holds shown change with it. A loan becomes overdue the moment it falls due. The
// test moves a kept copy's `expires_at` and a loan's `due_at` a few seconds ahead in the
// database, reads every representation that shows them twice (the second answer comes from the
// cache), moves the clock past the moment with no write at all, and reads again: the new state, a new ETag
// and Last-Modified, and the old validators (If-None-Match, If-Modified-Since) get 200 with the
// new body.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { catalogueTestTargets } from '../kit/catalogue/targets.ts';
import { createStores } from '../../src/catalogue/stores.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { openDatabase, type Database } from '../../src/storage/index.ts';
import { freshSchema, pgTestUrl } from '../support/pg.ts';
import { startCatalogue } from '../acceptance/catalogue-server.ts';

const STAFF = `Basic ${Buffer.from('personal:personal').toString('base64')}`;
const TYPES = { json: 'application/json', xml: 'application/xml', html: 'text/html' } as const;
type Format = keyof typeof TYPES;

/** How far ahead the kept copies' holds are made to run out. */
const RUNS_OUT_MS = 2500;

/** The server's clock: starts at the real time, moved only by the test. */
let now = Date.now();

interface Seen {
  readonly etag: string;
  readonly lastModified: string;
  readonly body: string;
}

for (const target of catalogueTestTargets(pgTestUrl())) {
  describe(`a kept copy's hold runs out without a write, on ${target.dialect}`, { skip: target.skip }, () => {
    let dir: string;
    let dropSchema: (() => Promise<void>) | undefined;
    let base: string;
    let stop: (() => Promise<void>) | undefined;
    let database: Database<DB>;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shelfmark-clock-'));
      let databaseUrl = join(dir, 'shelfmark.db');
      if (target.dialect === 'postgres') {
        const schema = await freshSchema();
        databaseUrl = schema.url;
        dropSchema = schema.drop;
      }
      // The representation cache on: startCatalogue reads no environment (ADR 0048's default).
      const server = await startCatalogue({ databaseUrl, clock: () => now });
      // The demo was written by the system clock while the server started: from it on, this one.
      now = Math.max(now, Date.now());
      base = server.base;
      stop = server.stop;
      database = await openDatabase<DB>(databaseUrl, { busyTimeoutMs: 30_000 });
    });
    after(async () => {
      await database?.close();
      await stop?.();
      await dropSchema?.();
      rmSync(dir, { recursive: true, force: true });
    });

    const get = (path: string, format: Format, headers: Record<string, string> = {}) =>
      fetch(base + path, { headers: { accept: TYPES[format], ...headers } });
    const staffCall = (method: string, path: string, body?: unknown) =>
      fetch(base + path, {
        method,
        headers: {
          accept: TYPES.json,
          authorization: STAFF,
          ...(body !== undefined && { 'content-type': TYPES.json }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });

    /** Two GETs (the second a cache hit): the same bytes and validators, Last-Modified sent. */
    async function seenTwice(path: string, format: Format, headers: Record<string, string> = {}) {
      const answers: Seen[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await get(path, format, headers);
        assert.equal(r.status, 200, `${path}.${format}`);
        const lastModified = r.headers.get('last-modified');
        assert.ok(lastModified, `${path}.${format} sends Last-Modified`);
        answers.push({ etag: r.headers.get('etag') ?? '', lastModified, body: await r.text() });
      }
      assert.deepEqual(answers[1], answers[0], `${path}.${format}: the same answer again`);
      return answers[0]!;
    }

    /** The old validators get 200 with a new body; a new ETag and a later Last-Modified. */
    async function changed(path: string, format: Format, old: Seen, headers: Record<string, string> = {}) {
      let latest = '';
      const conditions: Record<string, string>[] = [
        { 'if-none-match': old.etag },
        { 'if-modified-since': old.lastModified },
      ];
      for (const condition of conditions) {
        const r = await get(path, format, { ...headers, ...condition });
        assert.equal(r.status, 200, `${path}.${format} ${JSON.stringify(condition)}`);
        assert.notEqual(r.headers.get('etag'), old.etag, `${path}.${format}: a new ETag`);
        const lastModified = r.headers.get('last-modified');
        assert.ok(lastModified, `${path}.${format}: Last-Modified`);
        assert.ok(
          Date.parse(lastModified) > Date.parse(old.lastModified),
          `${path}.${format}: Last-Modified ${lastModified} after ${old.lastModified}`,
        );
        latest = await r.text();
        assert.notEqual(latest, old.body, `${path}.${format}: the new body`);
      }
      return latest;
    }

    /** A one-copy work lent out, with holds of the given persons in this order, then returned. */
    async function keptFor(tag: string, holders: readonly number[], lender: number) {
      const stores = createStores(database.db, {
        capabilities: database.capabilities,
        now: () => new Date(now),
      });
      const work = await stores.works.create({ titel: `Uhr ${tag}`, exemplare: 1 });
      const borrowed = await staffCall('POST', `/ausleihen/${lender}`, { werk: work.slug });
      assert.equal(borrowed.status, 201, await borrowed.text());
      const holds: number[] = [];
      for (const id of holders) {
        const placed = await staffCall('POST', `/vormerkungen?id=${id}`, { werk: `/werke/${work.slug}` });
        assert.equal(placed.status, 201, await placed.text());
        holds.push(Number(new URL(placed.headers.get('location') ?? '').pathname.split('/').pop()));
      }
      const loan = new URL(borrowed.headers.get('location') ?? '').pathname;
      assert.equal((await staffCall('DELETE', loan)).status, 204);
      return { slug: work.slug, holds };
    }

    test('copies, works, holds and loans show the new state, with new validators', async () => {
      const stores = createStores(database.db, {
        capabilities: database.capabilities,
        now: () => new Date(now),
      });
      const tag = Math.random().toString(36).slice(2, 8);
      const person = (n: string) => stores.persons.create({ vorname: 'Leserin', nachname: `${tag} ${n}` });
      const [lender, first, second] = [await person('L'), await person('A'), await person('B')];

      // Nobody waits after `first`: the copy becomes free. After `first` comes `second`.
      const alone = await keptFor(`${tag} allein`, [first.id], lender.id);
      const queued = await keptFor(`${tag} Schlange`, [first.id, second.id], lender.id);
      // And a loan that falls due at the same moment.
      const lent = await stores.works.create({ titel: `Uhr ${tag} geliehen`, exemplare: 1 });
      const borrowed = await staffCall('POST', `/ausleihen/${lender.id}`, { werk: lent.slug });
      assert.equal(borrowed.status, 201, await borrowed.text());
      const loan = new URL(borrowed.headers.get('location') ?? '').pathname;
      const moment = new Date(now + RUNS_OUT_MS);
      await database.db
        .updateTable('holds')
        .set({ expires_at: moment.toISOString() })
        .where('id', 'in', [alone.holds[0]!, queued.holds[0]!])
        .execute();
      await database.db
        .updateTable('loans')
        .set({ due_at: moment.toISOString() })
        .where('id', '=', Number(loan.split('/').pop()))
        .execute();
      now += 1100; // Last-Modified is sent once its second is over (ADR 0024)

      const copy = (slug: string) => `/werke/${slug}/exemplare/1`;
      const copies = (slug: string) => `/werke/${slug}/exemplare`;
      const work = (slug: string) => `/werke/${slug}`;
      const staff = { authorization: STAFF };
      const paths = [copy(alone.slug), copies(alone.slug), work(alone.slug)];
      const before = new Map<string, Seen>();
      for (const path of paths)
        for (const format of ['json', 'xml', 'html'] as const)
          before.set(`${path}.${format}`, await seenTwice(path, format));
      const queuedCopy = await seenTwice(copy(queued.slug), 'json', staff);
      const queuedWork = await seenTwice(work(queued.slug), 'json');
      assert.match(before.get(`${copy(alone.slug)}.json`)!.body, /"status":"vorgemerkt"/);
      assert.match(before.get(`${work(alone.slug)}.json`)!.body, /"verfuegbar":0/);
      assert.match(queuedCopy.body, new RegExp(`"vorgemerktFuer":\\{"name":"Leserin ${tag} A"`));
      // The holds shown to staff (and to their members): lists, one hold, the work's queue.
      const firstsHold = `/personen/${first.slug}/vormerkungen/${alone.holds[0]!}`;
      const secondsList = `/personen/${second.slug}/vormerkungen`;
      const queue = `/werke/${queued.slug}/vormerkungen`;
      const holdsBefore = {
        firstsHold: await seenTwice(firstsHold, 'json', staff),
        secondsList: await seenTwice(secondsList, 'json', staff),
        secondsListHtml: await seenTwice(secondsList, 'html', staff),
        queue: await seenTwice(queue, 'json', staff),
      };
      assert.match(holdsBefore.firstsHold.body, /"status":"bereit"/);
      assert.match(holdsBefore.secondsList.body, /"status":"wartend","position":1/);
      // The loan, its borrower's list and the staff's list of loans due (no Last-Modified there).
      const loansList = `/ausleihen/${lender.id}`;
      const loansBefore = {
        loan: await seenTwice(loan, 'json', staff),
        loanXml: await seenTwice(loan, 'xml', staff),
        list: await seenTwice(loansList, 'json', staff),
        listHtml: await seenTwice(loansList, 'html', staff),
      };
      assert.match(loansBefore.loan.body, /"ueberfaellig":false/);
      const due = await get('/ausleihen', 'json', staff);
      const dueBefore = { etag: due.headers.get('etag') ?? '', body: await due.text() };
      assert.equal((await get('/ausleihen', 'json', staff)).headers.get('etag'), dueBefore.etag);

      // No write from here on: only the clock moves past the holds' expiry and the due date.
      now = moment.getTime() + 1100;

      // Nobody waited: the copy is free, in every representation that shows it.
      assert.match(
        await changed(copy(alone.slug), 'json', before.get(`${copy(alone.slug)}.json`)!),
        /"status":"verfuegbar"/,
      );
      assert.match(
        await changed(copies(alone.slug), 'json', before.get(`${copies(alone.slug)}.json`)!),
        /"status":"verfuegbar"/,
      );
      assert.match(
        await changed(work(alone.slug), 'json', before.get(`${work(alone.slug)}.json`)!),
        /"verfuegbar":1,.*"status":"verfuegbar"/,
      );
      for (const path of paths) {
        assert.match(await changed(path, 'xml', before.get(`${path}.xml`)!), /<status>verfuegbar<\/status>/);
        assert.match(await changed(path, 'html', before.get(`${path}.html`)!), /copy-status verfuegbar/);
      }

      // Someone waited: the copy is kept for her from the moment the first hold ran out.
      assert.match(
        await changed(copy(queued.slug), 'json', queuedCopy, staff),
        new RegExp(`"vorgemerktFuer":\\{"name":"Leserin ${tag} B"`),
      );
      const still = await get(work(queued.slug), 'json');
      assert.match(await still.text(), /"verfuegbar":0/, 'still none free: kept for the next');
      assert.equal(still.headers.get('etag'), queuedWork.etag, 'anonymous sees the same work');

      // The holds: the first ran out (its URL answers 410), the second is ready.
      assert.equal((await get(firstsHold, 'json', staff)).status, 410);
      assert.match(await changed(secondsList, 'json', holdsBefore.secondsList, staff), /"status":"bereit"/);
      await changed(secondsList, 'html', holdsBefore.secondsListHtml, staff);
      assert.doesNotMatch(
        await changed(queue, 'json', holdsBefore.queue, staff),
        new RegExp(`Leserin ${tag} A`),
        'the first left the queue',
      );

      // The loan is overdue, in its own representations and in both lists.
      assert.match(await changed(loan, 'json', loansBefore.loan, staff), /"ueberfaellig":true/);
      assert.match(
        await changed(loan, 'xml', loansBefore.loanXml, staff),
        /<ueberfaellig>true<\/ueberfaellig>/,
      );
      assert.match(await changed(loansList, 'json', loansBefore.list, staff), /"ueberfaellig":true/);
      assert.match(await changed(loansList, 'html', loansBefore.listHtml, staff), /class="overdue"/);
      const dueAfter = await get('/ausleihen', 'json', { ...staff, 'if-none-match': dueBefore.etag });
      assert.equal(dueAfter.status, 200, 'the list of loans due changed');
      assert.notEqual(await dueAfter.text(), dueBefore.body);
    });
  });
}
