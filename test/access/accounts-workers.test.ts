// End to end across worker processes (ADR 0063): `shelfmark serve --workers 2` on one database.
// Each check is a dozen GETs, each on a connection of its own, so the cluster's round-robin
// spreads them over both workers — whose credential caches both remember Anna's Basic
// credential before the change. A password change from one device must end the other device's
// session and the old Basic credential on every worker, remembered or not, and keep the changing
// device logged in; a locked account must be refused by the form and Basic everywhere.
// SQLite (a temporary file) always, PostgreSQL (a fresh schema) with SHELFMARK_TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { basicAuth, logIn, type Session } from './server.ts';
import { serveShelfmark, type ServedShelfmark } from '../kit/serve.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../support/pg.ts';

const WORKERS = 2;
const GETS = 12;
/** Who `/sitzung.json` says is logged in (or the status when it is not 200), on a fresh connection. */
function whoAmI(base: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/sitzung.json`,
      { agent: false, headers: { connection: 'close', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) return resolve(String(res.statusCode));
          const who = JSON.parse(body) as { angemeldet: boolean; username?: string };
          resolve(who.angemeldet ? String(who.username) : 'anonymous');
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The answers of `count` fresh connections (round-robin: both workers answer): one value when
 * every worker agrees. Refused credentials are asked fewer times, staying under the log-in
 * limit (5 failures), which would answer 429 instead.
 */
async function everyWorker(base: string, headers: Record<string, string>, count = GETS): Promise<string[]> {
  const answers = new Set<string>();
  for (let i = 0; i < count; i++) answers.add(await whoAmI(base, headers));
  return [...answers];
}

/** The status of GET `path` on a fresh connection. */
function statusOf(base: string, path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { agent: false, headers: { connection: 'close', ...headers } },
      (res) => {
        res.resume().on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The statuses of a cacheable page over `count` fresh connections: from the second round on,
 * each worker answers a repeated Basic GET from its kept response (ADR 0069, 0071), without
 * the authenticator — so these show what it answers after a change the authenticator would see.
 */
async function everyWorkerStatus(
  base: string,
  path: string,
  headers: Record<string, string>,
  count = GETS,
): Promise<string[]> {
  const answers = new Set<string>();
  for (let i = 0; i < count; i++) answers.add(await statusOf(base, path, headers));
  return [...answers];
}

async function slugOf(base: string, session: Session): Promise<string> {
  const who = (await (
    await fetch(`${base}/sitzung.json`, { headers: { cookie: session.cookie } })
  ).json()) as {
    person: { url: string };
  };
  return new URL(who.person.url).pathname.replace('/personen/', '');
}

function suite(open: (dir: string) => Promise<{ databaseUrl: string; close(): Promise<void> }>): () => void {
  return () => {
    let dir = '';
    let close = async () => {};
    let server: ServedShelfmark | undefined;
    const base = () => server!.base;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shelfmark-accounts-'));
      const target = await open(dir);
      close = () => target.close();
      server = await serveShelfmark({
        databaseUrl: target.databaseUrl,
        dir,
        workers: WORKERS,
        // The secret generated once into the database: the one every worker reads.
        env: { SHELFMARK_SECRET: undefined },
        // Migrating and loading the demo into a fresh PostgreSQL schema can take a while on a busy machine.
        readyTimeoutMs: 180_000,
      });
    });
    after(async () => {
      await server?.process.stop();
      await close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test("a password change ends the other device's session and the old Basic credential on every worker", async () => {
      const here = await logIn(base(), 'anna');
      const there = await logIn(base(), 'anna');
      const oldBasic = { authorization: basicAuth('anna', 'anna') };
      // Remembered by both workers' credential caches (ADR 0035) before the change.
      assert.deepEqual(await everyWorker(base(), oldBasic), ['anna']);
      assert.deepEqual(await everyWorker(base(), { cookie: there.cookie }), ['anna']);
      const slug = await slugOf(base(), here);
      const page = `/personen/${slug}.json`;
      assert.deepEqual(await everyWorkerStatus(base(), page, oldBasic), ['200'], 'her private page');

      const changed = await fetch(`${base()}/personen/${slug}/konto/passwort`, {
        method: 'PUT',
        headers: { ...here.write, 'content-type': 'application/json' },
        body: JSON.stringify({ altesPasswort: 'anna', neuesPasswort: 'annas-neues-passwort' }),
      });
      assert.equal(changed.status, 204, await changed.text());
      const renewed = /^(shelfmark_session=[^;]+)/.exec(changed.headers.get('set-cookie') ?? '')?.[1];
      assert.ok(renewed, 'the changing device gets its cookie reissued');

      assert.deepEqual(
        await everyWorker(base(), { cookie: there.cookie }),
        ['anonymous'],
        'the other device',
      );
      assert.deepEqual(
        await everyWorker(base(), { cookie: here.cookie }),
        ['anonymous'],
        "the device's old cookie",
      );
      // Two and two: each worker asked, four failures stay under the log-in limit (5).
      assert.deepEqual(
        await everyWorker(base(), oldBasic, 2),
        ['401'],
        'the remembered old Basic credential',
      );
      assert.deepEqual(
        await everyWorkerStatus(base(), page, oldBasic, 2),
        ['401'],
        'her page, answered before',
      );
      assert.deepEqual(await everyWorker(base(), { cookie: renewed }), ['anna'], 'the changing device stays');
      assert.deepEqual(
        await everyWorker(base(), { authorization: basicAuth('anna', 'annas-neues-passwort') }),
        ['anna'],
      );
    });

    test('a locked account is refused by the form and Basic on every worker; unlocked it works again', async () => {
      const ben = await logIn(base(), 'ben');
      const benBasic = { authorization: basicAuth('ben', 'ben') };
      assert.deepEqual(await everyWorker(base(), benBasic), ['ben']);
      const benPage = `/personen/${await slugOf(base(), ben)}.json`;
      assert.deepEqual(await everyWorkerStatus(base(), benPage, benBasic), ['200']);
      const staff = { authorization: basicAuth('personal', 'personal'), accept: 'application/json' };
      const account = `${base()}/personen/${await slugOf(base(), ben)}/konto`;
      const lock = (gesperrt: boolean) =>
        fetch(account, {
          method: 'PATCH',
          headers: { ...staff, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ gesperrt }),
        });
      assert.equal((await lock(true)).status, 200);

      // One and two, with the form's attempt below four failures, under the log-in limit (5).
      assert.deepEqual(await everyWorker(base(), benBasic, 1), ['401'], 'Basic, remembered or not');
      assert.deepEqual(
        await everyWorkerStatus(base(), benPage, benBasic, 2),
        ['401'],
        'his page, answered before',
      );
      assert.deepEqual(await everyWorker(base(), { cookie: ben.cookie }), ['anonymous'], 'the session ended');
      const form = await fetch(`${base()}/sitzung`, {
        method: 'POST',
        headers: { origin: base(), 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: 'username=ben&password=ben',
        redirect: 'manual',
      });
      assert.equal(form.status, 401, 'the log-in form');
      assert.equal(form.headers.get('set-cookie'), null);
      assert.equal((await fetch(account, { headers: staff })).status, 200, 'locked is not deleted');

      assert.equal((await lock(false)).status, 200);
      assert.deepEqual(await everyWorker(base(), benBasic), ['ben'], 'unlocked by staff');
    });

    // Last: it leaves goethe blocked at this address for a quarter of an hour.
    test('a log-in limit reached ends what was kept for a Basic credential, on every worker', async () => {
      const page = '/personen/goethe.json';
      const right = { authorization: basicAuth('goethe', 'goethe') };
      assert.deepEqual(await everyWorkerStatus(base(), page, right), ['200']);
      // Kept or rendered, each has its one access-log line, with the Basic user as %u.
      const lines = readFileSync(join(dir, 'logs', 'access.log'), 'latin1')
        .split('\n')
        .filter((line) => line.includes(`"GET ${page} HTTP/1.1" 200 `));
      assert.equal(lines.length, GETS);
      for (const line of lines) assert.match(line, /^127\.0\.0\.1 - goethe \[/);
      const wrong = { authorization: basicAuth('goethe', 'falsch') };
      assert.deepEqual(await everyWorkerStatus(base(), page, wrong, 5), ['401'], 'the fifth fills the limit');
      assert.deepEqual(
        await everyWorkerStatus(base(), page, right, 4),
        ['429'],
        'the right password too, as the authenticator answers while the limit holds',
      );
    });
  };
}

describe(
  `accounts across ${WORKERS} workers, SQLite`,
  suite(async (dir) => ({ databaseUrl: join(dir, 'shelfmark.db'), close: async () => {} })),
);

describe(
  `accounts across ${WORKERS} workers, PostgreSQL`,
  skipUnlessPg,
  suite(async () => {
    const schema = await freshSchema(pgTestUrl());
    return { databaseUrl: schema.url, close: () => schema.drop() };
  }),
);
