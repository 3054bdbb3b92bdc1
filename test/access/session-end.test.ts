// Sessions that end (ADR 0076) and the last staff account (ADR 0077), end to end: two
// `shelfmark serve` processes — two machines — on one database, and the real CLI beside them.
// A log-out on one machine ends that cookie (and every copy of it) on both, and only that
// session; an account removed and created again for the same person (over HTTP, or with
// `shelfmark user remove` + `user add`) is never reached with a cookie of the old one, though the
// new account starts at session epoch 0 again; the last staff account cannot be removed by any
// path, and the person's confirmation page does not offer to delete it.
// SQLite (a temporary file) always, PostgreSQL (a fresh schema) with SHELFMARK_TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { basicAuth, logIn, type Session } from './server.ts';
import { ROOT, serveShelfmark, type ServedShelfmark } from '../kit/serve.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../support/pg.ts';

/** Who `/sitzung.json` says is logged in on `base` with `cookie`. */
async function whoAmI(base: string, cookie: string): Promise<string> {
  const response = await fetch(`${base}/sitzung.json`, { headers: { cookie } });
  assert.equal(response.status, 200);
  const who = (await response.json()) as { angemeldet: boolean; username?: string };
  return who.angemeldet ? String(who.username) : 'anonymous';
}

const STAFF = { authorization: basicAuth('personal'), accept: 'application/json' };

interface Problem {
  readonly code: string;
}

function suite(open: (dir: string) => Promise<{ databaseUrl: string; close(): Promise<void> }>): () => void {
  return () => {
    let dir = '';
    let databaseUrl = '';
    let close = async () => {};
    const servers: ServedShelfmark[] = [];
    /** Both machines' base URLs. */
    const bases = () => servers.map((s) => s.base);
    const a = () => servers[0]!.base;
    const b = () => servers[1]!.base;
    /** Who each machine says is logged in with `cookie`. */
    const everywhere = (cookie: string) => Promise.all(bases().map((base) => whoAmI(base, cookie)));

    /**
     * `shelfmark user …` on the same database; the password, if any, on standard input. Not
     * spawnSync: the test's event loop must go on (or its kept-alive connections go stale unseen).
     */
    async function cli(args: readonly string[], password?: string) {
      const child = spawn(process.execPath, ['src/cli/shelfmark.ts', 'user', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, SHELFMARK_DATA_DIR: join(dir, 'cli-data') },
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stdin.end(password === undefined ? '' : `${password}\n`);
      const [status] = (await once(child, 'close')) as [number | null];
      return { status, output };
    }

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shelfmark-session-end-'));
      const target = await open(dir);
      databaseUrl = target.databaseUrl;
      close = () => target.close();
      for (const machine of ['a', 'b'])
        servers.push(
          await serveShelfmark({
            databaseUrl,
            dir: join(dir, machine),
            // The secret generated once into the database: the one both machines read.
            env: { SHELFMARK_SECRET: undefined },
            readyTimeoutMs: 180_000,
          }),
        );
    });
    after(async () => {
      for (const server of servers) await server.stop();
      await close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('a log-out ends that session, and every copy of its cookie, on both machines', async () => {
      const phone = await logIn(a(), 'anna');
      const laptop = await logIn(b(), 'anna');
      assert.deepEqual(await everywhere(phone.cookie), ['anna', 'anna']);
      const out = await fetch(`${a()}/sitzung`, { method: 'DELETE', headers: phone.write });
      assert.equal(out.status, 204);
      assert.match(out.headers.get('set-cookie') ?? '', /^shelfmark_session=;/);
      assert.deepEqual(await everywhere(phone.cookie), ['anonymous', 'anonymous'], 'the copied cookie');
      assert.deepEqual(await everywhere(laptop.cookie), ['anna', 'anna'], 'her other session stays');
      // The ended cookie is an anonymous client's: her account is not shown to it.
      const account = await fetch(`${b()}/personen/anna-berger/konto`, { headers: phone.read });
      assert.equal(account.status, 403);
    });

    test('the last staff account stays: no delete, lock or demotion by HTTP or the CLI', async () => {
      const staff = await logIn(a(), 'personal');
      const own = '/personen/petra-lindner';
      const page = await fetch(`${a()}${own}?loeschen`, {
        headers: { cookie: staff.cookie, accept: 'text/html' },
      });
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.doesNotMatch(html, /Endgültig löschen/, 'no button that would be refused');
      assert.match(html, /letzte Personalkonto/);

      const refusals: [string, string, unknown?][] = [
        ['DELETE', own],
        ['DELETE', `${own}/konto`],
        ['PATCH', `${own}/konto`, { gesperrt: true }],
        ['PATCH', `${own}/konto`, { rolle: 'member' }],
      ];
      for (const [method, path, body] of refusals) {
        const response = await fetch(`${b()}${path}`, {
          method,
          headers: {
            ...STAFF,
            ...(body !== undefined && { 'content-type': 'application/merge-patch+json' }),
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        assert.equal(response.status, 409, `${method} ${path}`);
        const problem = (await response.json()) as Problem;
        // Own account changes keep ADR 0063's answer; the person's delete is the new one.
        assert.ok(['SHELFMARK_LAST_STAFF', 'SHELFMARK_CONFLICT'].includes(problem.code), problem.code);
        if (method === 'DELETE' && path === own) assert.equal(problem.code, 'SHELFMARK_LAST_STAFF');
      }
      for (const args of [
        ['remove', 'personal'],
        ['lock', 'personal'],
        ['role', 'personal', 'member'],
      ]) {
        const run = await cli(args);
        assert.equal(run.status, 1, `${args.join(' ')}: ${run.output}`);
        assert.match(run.output, /last staff account/);
      }
      assert.deepEqual(
        await everywhere(staff.cookie),
        ['personal', 'personal'],
        'still staff, still logged in',
      );
      const person = await fetch(`${a()}${own}.json`, { headers: STAFF });
      assert.equal(person.status, 200, 'the person is still there');
    });

    test('an account removed and created again over HTTP: the old cookie never comes back', async () => {
      const old = await logIn(a(), 'goethe');
      const account = `${b()}/personen/goethe/konto`;
      assert.equal((await fetch(account, { method: 'DELETE', headers: STAFF })).status, 204);
      const created = await fetch(account, {
        method: 'PUT',
        headers: { ...STAFF, 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'goethe2',
          rolle: 'staff',
          gesperrt: false,
          passwort: 'ein-neues-passwort',
        }),
      });
      assert.equal(created.status, 201, await created.text());
      assert.deepEqual(await everywhere(old.cookie), ['anonymous', 'anonymous']);
      const write = await fetch(`${a()}/personen/goethe/konto`, { headers: old.read });
      assert.equal(write.status, 403, 'nothing of the new staff account through the old cookie');
      const fresh = await logIn(b(), 'goethe2', 'ein-neues-passwort');
      assert.deepEqual(await everywhere(fresh.cookie), ['goethe2', 'goethe2']);
    });

    test('`shelfmark user remove` + `user add`: the old cookie never comes back', async () => {
      const old: Session = await logIn(b(), 'ben');
      assert.deepEqual(await everywhere(old.cookie), ['ben', 'ben']);
      const removed = await cli(['remove', 'ben']);
      assert.equal(removed.status, 0, removed.output);
      const added = await cli(
        ['add', 'ben', '--person', 'ben-krueger', '--role', 'staff', '--password-stdin'],
        'bens-neues-passwort',
      );
      assert.equal(added.status, 0, added.output);
      assert.deepEqual(await everywhere(old.cookie), ['anonymous', 'anonymous']);
      const fresh = await logIn(a(), 'ben', 'bens-neues-passwort');
      assert.deepEqual(await everywhere(fresh.cookie), ['ben', 'ben']);
    });
  };
}

describe(
  'sessions that end, two machines on one database, SQLite',
  suite(async (dir) => ({ databaseUrl: join(dir, 'shelfmark.db'), close: async () => {} })),
);

describe(
  'sessions that end, two machines on one database, PostgreSQL',
  skipUnlessPg,
  suite(async () => {
    const schema = await freshSchema(pgTestUrl());
    return { databaseUrl: schema.url, close: () => schema.drop() };
  }),
);
