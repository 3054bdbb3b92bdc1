// End to end, across processes: `shelfmark serve --workers 2` (so requests land in two worker
// processes that share one database) and many clients that all GET the same work and then PUT
// it at once with the same If-Match. Exactly one PUT may win (200); every other one must get 412
// (docs/methods.md: "PUT/DELETE with a stale If-Match → 412"), and the stored work is the winner's.
// The in-process lock cannot give that between two workers: the stores' compare-and-set does.
// Runs on SQLite (a temporary file) always, and on PostgreSQL (a fresh schema) when
// SHELFMARK_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveShelfmark, type ServedShelfmark } from '../kit/serve.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../support/pg.ts';

const STAFF = `Basic ${Buffer.from('personal:personal').toString('base64')}`;
const JSON_TYPE = 'application/json';
const WORKERS = 2;
/** Concurrent PUTs per round; several rounds make it likely both workers race every time. */
const CLIENTS = 16;
const ROUNDS = 8;
interface Answer {
  readonly status: number;
  readonly body: string;
}

async function putWork(base: string, slug: string, etag: string, value: unknown): Promise<Answer> {
  const response = await fetch(`${base}/werke/${slug}`, {
    method: 'PUT',
    body: JSON.stringify(value),
    headers: { authorization: STAFF, 'content-type': JSON_TYPE, accept: JSON_TYPE, 'if-match': etag },
  });
  return { status: response.status, body: await response.text() };
}

/** One round: everyone PUTs a different `exemplare` with the same If-Match, at the same time. */
async function race(base: string, slug: string, titel: string): Promise<void> {
  const got = await fetch(`${base}/werke/${slug}.json`);
  assert.equal(got.status, 200);
  const etag = got.headers.get('etag') ?? '';
  assert.ok(etag, 'the work has an ETag');
  const before = (await got.json()) as { exemplare: number };

  const wanted = Array.from({ length: CLIENTS }, (_, i) => before.exemplare + 1 + i);
  const answers = await Promise.all(
    wanted.map((exemplare) => putWork(base, slug, etag, { titel, jahr: 1900, exemplare })),
  );
  const statuses = answers.map((a) => a.status).sort((a, b) => a - b);
  const winners = answers.filter((a) => a.status === 200);
  assert.equal(winners.length, 1, `exactly one PUT wins; statuses: ${statuses.join(' ')}`);
  assert.deepEqual(
    statuses.filter((s) => s !== 200),
    Array.from({ length: CLIENTS - 1 }, () => 412),
    `every other PUT is refused with 412; statuses: ${statuses.join(' ')}`,
  );
  const winner = JSON.parse(winners[0]!.body) as { exemplare: number };
  const stored = (await (await fetch(`${base}/werke/${slug}.json`)).json()) as { exemplare: number };
  assert.equal(stored.exemplare, winner.exemplare, "the stored work is the winner's");
  assert.ok(wanted.includes(stored.exemplare));
}

interface Target {
  /** DATABASE_URL for the server ('' = a SQLite file in the temporary directory). */
  readonly databaseUrl: string;
  readonly drop?: () => Promise<void>;
}

function concurrentPutSuite(open: () => Promise<Target>): () => void {
  return () => {
    let dir = '';
    let target: Target | undefined;
    let server: ServedShelfmark | undefined;
    let slug = '';

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shelfmark-concurrent-puts-'));
      target = await open();
      server = await serveShelfmark({
        databaseUrl: target.databaseUrl || join(dir, 'shelfmark.db'),
        dir,
        workers: WORKERS,
        env: { SHELFMARK_REQUIRE_PRECONDITIONS: undefined },
      });
      const created = await fetch(`${server.base}/werke`, {
        method: 'POST',
        body: JSON.stringify({ titel: 'Wettlauf', exemplare: 1 }),
        headers: { authorization: STAFF, 'content-type': JSON_TYPE, accept: JSON_TYPE },
      });
      assert.equal(created.status, 201, await created.text());
      slug = new URL(created.headers.get('location') ?? '', server.base).pathname.split('/').pop() ?? '';
    });
    after(async () => {
      await server?.process.stop();
      await target?.drop?.();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (let round = 1; round <= ROUNDS; round++) {
      test(`round ${round}: ${CLIENTS} PUTs with one If-Match → one 200, the rest 412`, () =>
        race(server!.base, slug, 'Wettlauf'));
    }
  };
}

describe(
  `concurrent PUTs with the same If-Match, ${WORKERS} workers, SQLite`,
  concurrentPutSuite(async () => ({ databaseUrl: '' })),
);

describe(
  `concurrent PUTs with the same If-Match, ${WORKERS} workers, PostgreSQL`,
  skipUnlessPg,
  concurrentPutSuite(async () => {
    const schema = await freshSchema(pgTestUrl());
    return { databaseUrl: schema.url, drop: schema.drop };
  }),
);
