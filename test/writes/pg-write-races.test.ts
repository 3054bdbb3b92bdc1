// Writes that race across processes on PostgreSQL (ADR 0055, ADR 0024), against two real server
// processes sharing one database:
// - a work write (the work, then its persons) crossing a person write (the person, then its
//   works) in the other process: never a deadlock's 503 or a 500, every acknowledged write
//   stored. (A PUT may still get 412: the works' writes move the person's version, and a PUT
//   that loses its compare-and-set three times in a row gives up even without If-Match, ADR
//   0023; that write is not acknowledged, and nothing of it is stored.)
// - POSTs of one name from both processes at once: all 201, every slug different (a create
//   checks its generated slug after taking the change counter, so no other writer can take it
//   before the insert);
// - a generated slug that another connection inserts between the create's check and its insert
//   all the same — a writer outside that order, with triggers off as a logical-replication apply
//   or a bulk restore runs (`session_replication_role = replica`); made to happen, not hoped
//   for: a statement trigger this test adds holds the create's INSERT until the other row is
//   committed. The UNIQUE index refuses the create's insert, and the create runs again with the
//   next slug (createWithGeneratedSlug): 201.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { answering, ROOT } from '../access/server.ts';
import { freshSchema, skipUnlessPg, type FreshSchema } from '../support/pg.ts';
import { freePort, startProcess } from '../support/process.ts';

const STAFF = `Basic ${Buffer.from('personal:personal').toString('base64')}`;
const JSON_TYPE = 'application/json';
/** Writes per stream in the crossing test. */
const WRITES = 25;

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly location: string | null;
}

async function send(base: string, method: string, path: string, value?: unknown): Promise<Answer> {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: STAFF, accept: JSON_TYPE, 'content-type': JSON_TYPE },
    body: value === undefined ? undefined : JSON.stringify(value),
  });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

async function getJson<T>(base: string, path: string): Promise<T> {
  const answer = await send(base, 'GET', path);
  assert.equal(answer.status, 200, `${path}: ${answer.body}`);
  return JSON.parse(answer.body) as T;
}

interface PersonJson {
  vorname: string;
  nachname: string;
  image: string;
  werk: { titel: string; url: string }[];
}
interface WorkJson {
  titel: string;
  person: { name: string; url: string }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('write races across two processes on PostgreSQL', skipUnlessPg, () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-races-'));
  const stops: (() => Promise<void>)[] = [];
  let schema: FreshSchema | undefined;
  let client: pg.Client | undefined;
  let a = '';
  let b = '';

  before(async () => {
    schema = await freshSchema();
    // One public base for both, as behind one load balancer; the first loads the demo.
    let publicBase = '';
    for (const demo of ['1', '0']) {
      const port = await freePort();
      publicBase ||= `http://127.0.0.1:${port}`;
      const started = await startProcess(
        process.execPath,
        ['src/cli/shelfmark.ts', 'serve', '--workers', '0'],
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: schema.url,
          SHELFMARK_DATA_DIR: join(dir, `data-${port}`),
          SHELFMARK_LOG_DIR: join(dir, `logs-${port}`),
          SHELFMARK_BASE_URL: publicBase,
          SHELFMARK_DEMO: demo,
          SHELFMARK_WORKERS: undefined,
          SHELFMARK_REQUIRE_PRECONDITIONS: undefined,
          SHELFMARK_CACHE_MIB: undefined,
        },
        /Shelfmark is serving (\S+)/,
        { cwd: ROOT },
      );
      stops.push(() => started.stop());
      const base = `http://127.0.0.1:${port}`;
      await answering(base);
      if (a === '') a = base;
      else b = base;
    }
    client = new pg.Client(schema.config);
    await client.connect();
  });
  after(async () => {
    await client?.end();
    for (const stop of stops) await stop();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('crossing work and person writes: no 503 or 500, every acknowledged write stored', async () => {
    const person = '/personen/goethe';
    const original = await getJson<PersonJson>(a, `${person}.json`);
    const works = original.werk.slice(0, 3).map((w) => new URL(w.url).pathname);
    assert.equal(works.length, 3);
    const bodies = new Map<string, WorkJson>();
    for (const path of works) bodies.set(path, await getJson<WorkJson>(a, `${path}.json`));
    const failures: string[] = [];
    const last = new Map<string, string>();
    let refused = 0;
    // Each resource has one writer (so "last acknowledged" is well defined); the writers of the
    // person and of its works run in different processes at the same time.
    const stream = async (
      base: string,
      path: string,
      body: (i: number) => unknown,
      label: (i: number) => string,
    ) => {
      for (let i = 1; i <= WRITES; i++) {
        const answer = await send(base, 'PUT', path, body(i));
        if (answer.status === 200) last.set(path, label(i));
        else if (answer.status === 412) refused++;
        else failures.push(`${path} #${i}: ${answer.status} ${answer.body}`);
      }
    };
    await Promise.all([
      stream(
        b,
        person,
        (i) => ({ ...original, vorname: `Johann ${i}` }),
        (i) => `Johann ${i}`,
      ),
      ...works.map((path, n) =>
        stream(
          n % 2 === 0 ? a : b,
          path,
          (i) => ({ ...bodies.get(path), titel: `Werk ${n} Fassung ${i}` }),
          (i) => `Werk ${n} Fassung ${i}`,
        ),
      ),
    ]);
    assert.deepEqual(failures, []);
    assert.ok(refused < WRITES * 4, 'most writes went through');
    // What was acknowledged last is what both processes show, in every place that shows it.
    const vorname = last.get(person);
    assert.ok(vorname !== undefined, 'a person write was acknowledged');
    for (const base of [a, b]) {
      const now = await getJson<PersonJson>(base, `${person}.json`);
      assert.equal(now.vorname, vorname);
      for (const [n, path] of works.entries()) {
        const work = await getJson<WorkJson>(base, `${path}.json`);
        assert.equal(work.titel, last.get(path), `${path} (work ${n})`);
        assert.ok(
          work.person.some((p) => p.name === `${vorname} ${original.nachname}`),
          `${path} shows the person's last name`,
        );
        assert.ok(
          now.werk.some((w) => w.titel === work.titel),
          `the person shows ${path}'s last title`,
        );
      }
    }
  });

  test('POSTs of one name from both processes at once: all 201, every slug different', async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        send(i % 2 === 0 ? a : b, 'POST', '/personen', { vorname: 'Gleicher', nachname: 'Name' }),
      ),
    );
    assert.deepEqual(
      answers.filter((x) => x.status !== 201).map((x) => `${x.status} ${x.body}`),
      [],
    );
    const slugs = answers.map((x) => new URL(x.location ?? '').pathname);
    assert.equal(new Set(slugs).size, slugs.length, slugs.join(' '));
    assert.ok(slugs.includes('/personen/gleicher-name'));
  });

  test('a generated slug taken between check and insert: the create runs again with the next slug', async () => {
    assert.ok(client);
    const db = client;
    // A statement trigger on persons that waits while this test holds an advisory lock.
    const key = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
    await db.query(`create function test_pause() returns trigger language plpgsql as $$
      begin perform pg_advisory_lock(${key}); perform pg_advisory_unlock(${key}); return null; end $$`);
    await db.query(
      'create trigger a_test_pause before insert on persons for each statement execute function test_pause()',
    );
    try {
      await db.query('select pg_advisory_lock($1)', [key]);
      const posted = send(a, 'POST', '/personen', { vorname: 'Rennen', nachname: 'Ziel' });
      // The create has chosen its slug and now waits in its INSERT.
      for (let attempt = 0; ; attempt++) {
        const waiting = await db.query(
          "select 1 from pg_locks where locktype = 'advisory' and objid = $1 and not granted",
          [key],
        );
        if (waiting.rowCount) break;
        assert.ok(attempt < 400, 'the POST never reached its INSERT');
        await sleep(50);
      }
      // Another connection, with triggers off (so it neither waits for the change counter the
      // create holds nor for the pause), takes that slug and commits.
      const at = new Date().toISOString();
      await db.query('set session_replication_role = replica');
      await db.query(
        `insert into persons (slug, vorname, nachname, sort_key, search_text, created_at, updated_at)
         values ('rennen-ziel', 'Rennen', 'Ziel', 'ziel rennen', 'Rennen Ziel', $1, $1)`,
        [at],
      );
      await db.query('reset session_replication_role');
      await db.query('select pg_advisory_unlock($1)', [key]);
      const answer = await posted;
      assert.equal(answer.status, 201, answer.body);
      assert.equal(new URL(answer.location ?? '').pathname, '/personen/rennen-ziel-2');
      const taken = await db.query("select count(*)::int as n from persons where slug like 'rennen-ziel%'");
      assert.equal(taken.rows[0].n, 2);
    } finally {
      await db.query('reset session_replication_role');
      await db.query('select pg_advisory_unlock_all()');
      await db.query('drop trigger if exists a_test_pause on persons');
      await db.query('drop function if exists test_pause()');
    }
  });
});
