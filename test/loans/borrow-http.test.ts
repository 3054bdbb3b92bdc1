// Borrowing over HTTP: 50 concurrent POSTs for a work with 3 copies → exactly three 201 and
// forty-seven 409, availability 0 afterwards; plus the access rules on the wire. Runs twice per
// engine (SQLite always, PostgreSQL with SHELFMARK_TEST_DATABASE_URL):
//   - in-process: the resource layer and the real stores, with HTTP Basic checked by the test;
//   - the real server started by the CLI (`shelfmark serve`), with its own authentication.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { catalogueApp } from '../kit/catalogue/app.ts';
import { catalogueResources } from '../../src/catalogue/index.ts';
import { hashPassword, verifyPassword } from '../../src/catalogue/accounts/password.ts';
import { catalogueMigrations } from '../../src/catalogue/migrations/index.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { createStores } from '../../src/catalogue/stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../kit/catalogue/targets.ts';
import { migrateToLatest, openDatabase, type Database } from '../../src/storage/index.ts';
import { freshSchema, pgTestUrl } from '../support/pg.ts';
import { freePort } from '../support/process.ts';
import { serveShelfmark } from '../kit/serve.ts';

const basic = (user: string, password = user) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

interface Fixture {
  readonly staff: string;
  readonly member: { readonly id: number; readonly auth: string };
  readonly other: { readonly id: number };
  readonly readers: readonly number[];
  readonly slug: string;
}

/** 50 readers, a member with an account, and a work with 3 copies, written straight to the database. */
async function prepare(db: Database<DB>['db'], staffAuth: string, member: string): Promise<Fixture> {
  const stores = createStores(db);
  const tag = Math.random().toString(36).slice(2, 8);
  const readers = [];
  for (let i = 0; i < 50; i++)
    readers.push((await stores.persons.create({ vorname: 'Leser', nachname: `${tag} ${i}` })).id);
  const work = await stores.works.create({ titel: `Rennen ${tag}`, exemplare: 3 });
  const memberRow = await db
    .selectFrom('accounts')
    .select('person_id')
    .where('username', '=', member)
    .executeTakeFirst();
  assert.ok(memberRow, `account ${member}`);
  return {
    staff: staffAuth,
    member: { id: memberRow.person_id, auth: basic(member) },
    other: { id: readers[0]! },
    readers,
    slug: work.slug,
  };
}

async function scenario(base: string, f: Fixture): Promise<void> {
  const fetchJson = (path: string, init: RequestInit = {}) =>
    fetch(base + path, { ...init, headers: { accept: 'application/json', ...init.headers } });

  // Access on the wire: anonymous and another member 403, the owner and staff 200.
  assert.equal((await fetchJson(`/ausleihen/${f.member.id}`)).status, 403);
  assert.equal(
    (await fetchJson(`/ausleihen/${f.other.id}`, { headers: { authorization: f.member.auth } })).status,
    403,
  );
  assert.equal(
    (await fetchJson(`/ausleihen/${f.member.id}`, { headers: { authorization: f.member.auth } })).status,
    200,
  );
  assert.equal(
    (await fetchJson(`/ausleihen/${f.member.id}`, { headers: { authorization: f.staff } })).status,
    200,
  );
  assert.equal((await fetchJson(`/ausleihen/999999`, { headers: { authorization: f.staff } })).status, 404);
  assert.equal(
    (await fetchJson(`/ausleihen/999999`, { headers: { authorization: f.member.auth } })).status,
    403,
  );
  assert.equal((await fetchJson('/ausleihen', { headers: { authorization: f.member.auth } })).status, 403);

  // The race: 50 borrowers at once, 3 copies.
  const responses = await Promise.all(
    f.readers.map((id) =>
      fetchJson(`/ausleihen/${id}`, {
        method: 'POST',
        headers: { authorization: f.staff, 'content-type': 'application/json' },
        body: JSON.stringify({ werk: `/werke/${f.slug}` }),
      }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 3, statuses.join(' '));
  assert.equal(statuses.filter((s) => s === 409).length, 47, statuses.join(' '));
  const created = responses.filter((r) => r.status === 201);
  for (const r of created) assert.match(r.headers.get('location') ?? '', /\/ausleihen\/\d+\/\d+$/);
  const work = (await (await fetchJson(`/werke/${f.slug}`)).json()) as { verfuegbar: number };
  assert.equal(work.verfuegbar, 0);

  // Returning one copy frees it; the loan's URL then answers 410.
  const loanUrl = new URL(created[0]!.headers.get('location') ?? '').pathname;
  assert.equal((await fetchJson(loanUrl, { headers: { authorization: f.staff } })).status, 200);
  assert.equal(
    (await fetchJson(loanUrl, { method: 'DELETE', headers: { authorization: f.staff } })).status,
    204,
  );
  assert.equal((await fetchJson(loanUrl, { headers: { authorization: f.staff } })).status, 410);
  const after = (await (await fetchJson(`/werke/${f.slug}`)).json()) as { verfuegbar: number };
  assert.equal(after.verfuegbar, 1);
}

for (const target of catalogueTestTargets(pgTestUrl())) {
  describe(`borrowing over HTTP, in-process app on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let app: FastifyInstance;
    let base: string;

    before(async () => {
      database = await target.open();
      const stores = createStores(database.db, { capabilities: database.capabilities });
      const hash = await hashPassword('secret');
      for (const [username, role] of [
        ['chefin', 'staff'],
        ['mitglied', 'member'],
      ] as const) {
        const person = await stores.persons.create({ vorname: username, nachname: 'Test' });
        await database.db
          .insertInto('accounts')
          .values({
            person_id: person.id,
            username,
            password_hash: hash,
            role,
            created_at: new Date().toISOString(),
          })
          .execute();
      }
      const catalogue = catalogueResources(stores);
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const checked = new Map<string, boolean>();
      app = await catalogueApp(catalogue, {
        baseUrl: base,
        displayErrors: true,
        // HTTP Basic against the accounts table (the real server's security module does more).
        async authenticate(request) {
          const header = request.headers.authorization ?? '';
          if (!header.startsWith('Basic ')) return null;
          const [username = '', password = ''] = Buffer.from(header.slice(6), 'base64').toString().split(':');
          const account = await database.db
            .selectFrom('accounts')
            .selectAll()
            .where('username', '=', username)
            .executeTakeFirst();
          if (!account) return null;
          const key = `${username}:${password}`;
          if (!checked.has(key)) checked.set(key, await verifyPassword(password, account.password_hash));
          return checked.get(key) ? { id: account.person_id, username, role: account.role } : null;
        },
      });
      await app.listen({ port, host: '127.0.0.1' });
    });
    after(async () => {
      await app?.close();
      await database?.dispose();
    });

    test('50 concurrent borrows of 3 copies: three 201, forty-seven 409; access rules', async () => {
      const fixture = await prepare(database.db, basic('chefin', 'secret'), 'mitglied');
      await scenario(base, { ...fixture, member: { ...fixture.member, auth: basic('mitglied', 'secret') } });
    });
  });

  describe(`borrowing over HTTP, real server (CLI) on ${target.dialect}`, { skip: target.skip }, () => {
    let dir: string;
    let databaseUrl: string;
    let dropSchema: (() => Promise<void>) | undefined;
    let base: string;
    let stop: (() => Promise<void>) | undefined;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shelfmark-loans-http-'));
      if (target.dialect === 'postgres') {
        const schema = await freshSchema();
        databaseUrl = schema.url;
        dropSchema = schema.drop;
      } else {
        databaseUrl = join(dir, 'shelfmark.db');
      }
      const server = await serveShelfmark({ databaseUrl, dir });
      base = server.base;
      stop = server.stop;
    });
    after(async () => {
      await stop?.();
      await dropSchema?.();
      rmSync(dir, { recursive: true, force: true });
    });

    test('50 concurrent borrows of 3 copies: three 201, forty-seven 409; access rules', async () => {
      // The server has migrated and loaded the demo (staff "personal", member "anna").
      const database = await openDatabase<DB>(databaseUrl);
      try {
        await migrateToLatest(database, catalogueMigrations); // a no-op: proves the schema is current
        const fixture = await prepare(database.db, basic('personal'), 'anna');
        await scenario(base, fixture);
      } finally {
        await database.close();
      }
    });
  });
}
