// End to end, across processes (ADR 0048): `shelfmark serve --workers 2` keeps rendered
// representations in each worker's cache. After a write by ANOTHER process on the same database
// (here: plain SQL from the test process, which no worker hears about), the next GET on every
// worker must show the new body with a new ETag. Each GET uses its own connection, so the
// cluster's round-robin spreads them over both workers. SQLite (a temporary file) always,
// PostgreSQL (a fresh schema) when SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { serveShelfmark, type ServedShelfmark } from '../kit/serve.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../support/pg.ts';

const WORKERS = 2;
/** GETs per check: each on a new connection, so both workers answer several of them. */
const GETS = 12;
interface Answer {
  readonly status: number;
  readonly etag: string;
  readonly body: string;
}

/** One GET on a connection of its own (no keep-alive agent). */
function freshGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag), body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function getMany(url: string, headers: Record<string, string> = {}): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < GETS; i++) answers.push(await freshGet(url, headers));
  return answers;
}

interface Target {
  readonly databaseUrl: string;
  /** Renames Goethe with plain SQL in this process: no worker takes part in the write. */
  rename(vorname: string): Promise<void>;
  close(): Promise<void>;
}

function cacheSuite(open: (dir: string) => Promise<Target>): () => void {
  return () => {
    let dir = '';
    let target: Target | undefined;
    let server: ServedShelfmark | undefined;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shelfmark-cache-'));
      target = await open(dir);
      server = await serveShelfmark({
        databaseUrl: target.databaseUrl,
        dir,
        workers: WORKERS,
        // The representation cache on, whatever the environment says.
        env: { SHELFMARK_CACHE_MIB: undefined },
      });
    });
    after(async () => {
      await server?.process.stop();
      await target?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('staff and anonymous HTML differ, and each keeps getting its own from every worker', async () => {
      const url = `${server!.base}/personen/goethe.html`;
      const staff = { authorization: `Basic ${Buffer.from('personal:personal').toString('base64')}` };
      const anonymous = await getMany(url);
      const staffs = await getMany(url, staff);
      const again = await getMany(url);
      assert.equal(new Set(anonymous.map((a) => a.body)).size, 1);
      assert.equal(new Set(staffs.map((a) => a.body)).size, 1);
      assert.notEqual(staffs[0]!.body, anonymous[0]!.body, 'staff see more (forms, their name)');
      assert.ok(!anonymous[0]!.body.includes('personal'), 'no staff name in the anonymous page');
      for (const answer of again) assert.equal(answer.body, anonymous[0]!.body);
    });

    for (const format of ['json', 'html', 'xml']) {
      test(`${format}: a write by another process is seen by the next GET on every worker`, async () => {
        const url = `${server!.base}/personen/goethe.${format}`;
        const warm = await getMany(url);
        assert.ok(warm.every((a) => a.status === 200));
        assert.equal(new Set(warm.map((a) => a.etag)).size, 1, 'every worker answers the same bytes');
        const oldTag = warm[0]!.etag;
        const name = `Wolfgang${format}`;
        await target!.rename(name);
        const fresh = await getMany(url);
        for (const answer of fresh) {
          assert.equal(answer.status, 200);
          assert.notEqual(answer.etag, oldTag, 'a new ETag after the write');
          assert.ok(answer.body.includes(name), `the new name in the body: ${answer.body.slice(0, 200)}`);
        }
        assert.equal(new Set(fresh.map((a) => a.etag)).size, 1);
      });
    }
  };
}

describe(
  `representation cache, ${WORKERS} workers, SQLite`,
  cacheSuite(async (dir) => {
    const file = join(dir, 'shelfmark.db');
    return {
      databaseUrl: file,
      async rename(vorname) {
        const db = new DatabaseSync(file);
        try {
          db.exec('PRAGMA busy_timeout = 5000');
          db.prepare("update persons set vorname = ? where slug = 'goethe'").run(vorname);
        } finally {
          db.close();
        }
      },
      close: async () => {},
    };
  }),
);

describe(
  `representation cache, ${WORKERS} workers, PostgreSQL`,
  skipUnlessPg,
  cacheSuite(async () => {
    const schema = await freshSchema(pgTestUrl());
    return {
      databaseUrl: schema.url,
      async rename(vorname) {
        const client = new pg.Client(schema.config);
        await client.connect();
        try {
          await client.query("update persons set vorname = $1 where slug = 'goethe'", [vorname]);
        } finally {
          await client.end();
        }
      },
      close: () => schema.drop(),
    };
  }),
);
