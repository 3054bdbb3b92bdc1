// ADR 0098 through a real server, on SQLite and PostgreSQL: a write drops the cached renderings
// that show what it changed and keeps the others. A loan, renewal and return of a copy of Faust
// drop Faust's page but not Goethe's (it shows Faust's title, not its lending); a member's loans
// and holds lists stay cached across writes of other works and are dropped by the member's own
// lending and by a change of a work they show. "Kept" is read from the server's cache counts
// (a hit adds one); "dropped" from the next answer showing the write.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../src/catalogue/accounts/index.ts';
import { createStores } from '../../src/catalogue/stores.ts';
import { loadConfig } from '../../src/config/index.ts';
import { openCatalogueDatabase, prepareDatabase, startServer, type RunningServer } from '../../src/main.ts';
import { freshSchema, pgTestUrl, skipUnlessPg, type FreshSchema } from '../support/pg.ts';

const auth = (user: string) => `Basic ${Buffer.from(`${user}:${user}-pw`).toString('base64')}`;
const STAFF = auth('personal');
const MEMBER = auth('mitglied');

interface Seeded {
  readonly member: { id: number; slug: string };
  readonly staff: { id: number };
}

function config(env: Record<string, string>, databaseUrl: string | undefined) {
  const loaded = loadConfig({
    ...env,
    SHELFMARK_DEMO: '0',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  });
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  return loaded.config;
}

/** Goethe with Faust (2 copies) and Rar (1 copy), another work, a member and staff with accounts. */
async function seed(databaseUrl: string | undefined, dataDir: string): Promise<Seeded> {
  const settings = config({ SHELFMARK_DATA_DIR: dataDir }, databaseUrl);
  await prepareDatabase(settings);
  const database = await openCatalogueDatabase(settings);
  try {
    const stores = createStores(database.db, { capabilities: database.capabilities });
    const goethe = await stores.persons.create({ slug: 'goethe', vorname: 'Johann', nachname: 'Goethe' });
    const schiller = await stores.persons.create({ slug: 'schiller', vorname: 'F.', nachname: 'Schiller' });
    await stores.works.create({ slug: 'faust', titel: 'Faust', exemplare: 2, personIds: [goethe.id] });
    await stores.works.create({ slug: 'rar', titel: 'Rar', exemplare: 1, personIds: [goethe.id] });
    await stores.works.create({
      slug: 'raeuber',
      titel: 'Die Räuber',
      exemplare: 1,
      personIds: [schiller.id],
    });
    let member = { id: 0, slug: '' };
    let staff = { id: 0 };
    for (const [slug, username, role] of [
      ['staff', 'personal', 'staff'],
      ['mitglied', 'mitglied', 'member'],
    ] as const) {
      const person = await stores.persons.create({ slug, vorname: username, nachname: 'Test' });
      await stores.accounts.add({
        personId: person.id,
        username,
        passwordHash: await hashPassword(`${username}-pw`),
        role,
      });
      if (role === 'member') member = { id: person.id, slug };
      else staff = { id: person.id };
    }
    return { member, staff };
  } finally {
    await database.close();
  }
}

function suite(open: () => Promise<{ databaseUrl?: string; dispose(): Promise<void> }>) {
  return () => {
    let dir = '';
    let server: RunningServer;
    let seeded: Seeded;
    let target: Awaited<ReturnType<typeof open>>;

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-drops-'));
      target = await open();
      const dataDir = path.join(dir, 'data');
      seeded = await seed(target.databaseUrl, dataDir);
      server = await startServer(
        config(
          {
            PORT: '0',
            HOST: '127.0.0.1',
            SHELFMARK_DATA_DIR: dataDir,
            SHELFMARK_LOG_DIR: path.join(dir, 'logs'),
          },
          target.databaseUrl,
        ),
      );
    });
    after(async () => {
      await server?.stop(1000);
      await target?.dispose();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const hits = () => server.representationCache.stats().hits;
    /** A GET's body and whether the cache answered it. */
    async function get(url: string, authorization?: string): Promise<{ body: string; hit: boolean }> {
      const before = hits();
      const response = await server.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'application/json', ...(authorization && { authorization }) },
      });
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return { body: response.body, hit: hits() > before };
    }
    async function send(method: string, url: string, body?: unknown, authorization = STAFF) {
      const response = await server.app.inject({
        method: method as 'POST',
        url,
        headers: {
          accept: 'application/json',
          authorization,
          ...(body !== undefined && {
            'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
          }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
      return response;
    }
    const available = async (slug: string) =>
      (JSON.parse((await get(`/werke/${slug}`)).body) as { verfuegbar: number }).verfuegbar;

    test('lending a copy of Faust drops Faust’s page, not Goethe’s', async () => {
      const loans = `/ausleihen/${seeded.member.id}`;
      await get('/personen/goethe');
      assert.equal((await get('/personen/goethe')).hit, true, 'cached before the loan');
      assert.equal(await available('faust'), 2);

      const borrowed = await send('POST', loans, { werk: '/werke/faust' });
      const loanPath = new URL(borrowed.headers.location as string).pathname;
      assert.equal(await available('faust'), 1, 'the work’s page shows the loan at once');
      assert.equal((await get('/personen/goethe')).hit, true, 'the author’s page stays after a loan');

      await send('POST', `${loanPath}/verlaengerung`);
      assert.equal((await get('/personen/goethe')).hit, true, 'and after a renewal');
      await send('DELETE', loanPath);
      assert.equal(await available('faust'), 2);
      assert.equal((await get('/personen/goethe')).hit, true, 'and after a return');

      // An edit of what the author's page does not show (the year) keeps it, and the persons
      // list: the work's links are not rewritten, the author's version not moved (ADR 0103).
      // Within one decade: a new decade changes the list's decade facet (ADR 0102).
      await send('PATCH', '/werke/faust', { jahr: 1808 });
      await get('/personen');
      const goethe = await server.app.inject({
        url: '/personen/goethe',
        headers: { accept: 'application/json' },
      });
      await send('PATCH', '/werke/faust', { jahr: 1809 });
      assert.match((await get('/werke/faust')).body, /"jahr":1809/);
      assert.equal((await get('/personen/goethe')).hit, true, 'the author’s page stays after a year’s edit');
      assert.equal((await get('/personen')).hit, true, 'and the persons list');
      const after = await server.app.inject({
        url: '/personen/goethe',
        headers: { accept: 'application/json' },
      });
      assert.equal(after.headers.etag, goethe.headers.etag, 'the author’s version did not move');

      // What the author's page does show drops it.
      await send('PATCH', '/werke/faust', { titel: 'Faust I' });
      const renamed = await get('/personen/goethe');
      assert.equal(renamed.hit, false);
      assert.match(renamed.body, /Faust I/);
    });

    test('a member’s loans and holds lists are kept across other writes, dropped by theirs', async () => {
      const loans = `/ausleihen/${seeded.member.id}`;
      const holds = `/personen/${seeded.member.slug}/vormerkungen`;
      await get(loans, MEMBER);
      await get(holds, MEMBER);
      assert.equal((await get(loans, MEMBER)).hit, true);
      assert.equal((await get(holds, MEMBER)).hit, true);

      // Another work edited, another member's lending: the lists stay.
      await send('PATCH', '/werke/raeuber', { titel: 'Die Räuber (1781)' });
      await send('POST', `/ausleihen/${seeded.staff.id}`, { werk: '/werke/rar' });
      assert.equal((await get(loans, MEMBER)).hit, true, 'the loans list stays');
      assert.equal((await get(holds, MEMBER)).hit, true, 'the holds list stays');

      // The member's own loan and hold.
      await send('POST', loans, { werk: '/werke/faust' });
      const afterLoan = await get(loans, MEMBER);
      assert.equal(afterLoan.hit, false);
      assert.match(afterLoan.body, /Faust I/);
      await send('POST', holds, { werk: '/werke/rar' }, MEMBER);
      const waiting = await get(holds, MEMBER);
      assert.match(waiting.body, /"titel":"Rar"/);
      assert.match(waiting.body, /"position":1/);

      // A work they show changes: its title, and (for the hold) the copy coming back.
      await send('PATCH', '/werke/faust', { titel: 'Faust. Der Tragödie erster Teil' });
      assert.match((await get(loans, MEMBER)).body, /Der Tragödie erster Teil/);
      const staffLoans = JSON.parse((await get(`/ausleihen/${seeded.staff.id}`, STAFF)).body) as {
        ausleihe: { url: string }[];
      };
      await send('DELETE', new URL(staffLoans.ausleihe[0]!.url).pathname);
      const ready = await get(holds, MEMBER);
      assert.equal(ready.hit, false);
      assert.doesNotMatch(ready.body, /"position":1/, 'the hold is ready once the copy is back');
    });
  };
}

describe(
  'what a write drops, one SQLite file',
  suite(async () => ({ async dispose() {} })),
);

describe(
  'what a write drops, PostgreSQL',
  skipUnlessPg,
  suite(async () => {
    const schema: FreshSchema = await freshSchema(pgTestUrl());
    return { databaseUrl: schema.url, dispose: () => schema.drop() };
  }),
);
