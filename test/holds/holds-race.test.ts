// Issue 12's acceptance for holds: 50 concurrent holds and returns on one work, over real
// servers (`shelfmark serve --workers 2`: two processes on one database), on SQLite and on
// PostgreSQL. The queue order and the copy assignments must be exactly first-come:
//   1. three members hold the work (3 copies, all lent); then 47 more holds and the 3 returns go
//      in at once: all 50 holds 201, the returned copies kept for exactly the first three, the
//      other 47 at places 1…47 in the order they were committed (id order);
//   2. rounds until everyone had the book: every member still waiting tries to borrow while the
//      previous round's borrowers return, all at once: only members whose copy is kept for them
//      get one, and copies become ready strictly in queue order;
//   3. in the database: every hold fulfilled with the copy kept for it, and no copy ever in two
//      open loans.
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
import { serveShelfmark } from '../kit/serve.ts';
import { logIn, type Session } from '../access/server.ts';

for (const target of catalogueTestTargets(pgTestUrl())) {
  describe(
    `50 concurrent holds and returns on one work, two workers on ${target.dialect}`,
    { skip: target.skip },
    () => {
      let dir: string;
      let databaseUrl: string;
      let dropSchema: (() => Promise<void>) | undefined;
      let base: string;
      let stop: (() => Promise<void>) | undefined;
      let database: Database<DB>;

      before(async () => {
        dir = mkdtempSync(join(tmpdir(), 'shelfmark-holds-race-'));
        if (target.dialect === 'postgres') {
          const schema = await freshSchema();
          databaseUrl = schema.url;
          dropSchema = schema.drop;
        } else databaseUrl = join(dir, 'shelfmark.db');
        const server = await serveShelfmark({ databaseUrl, dir, workers: 2 });
        base = server.base;
        stop = server.stop;
        database = await openDatabase<DB>(databaseUrl, { busyTimeoutMs: 30_000 });
        staff = await logIn(base, 'personal');
      });
      after(async () => {
        await database?.close();
        await stop?.();
        await dropSchema?.();
        rmSync(dir, { recursive: true, force: true });
      });

      // Staff's session: a Basic credential is verified (scrypt) per worker, and 50 at once from
      // one address meet the verification gate's 429 (src/http/auth/verification-gate.ts).
      let staff: Session;
      const call = (method: string, path: string, body?: unknown) =>
        fetch(base + path, {
          method,
          headers: {
            accept: 'application/json',
            ...(method === 'GET' ? staff.read : staff.write),
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });

      test('the queue order and the copy assignments are exactly first-come', async () => {
        const stores = createStores(database.db, { capabilities: database.capabilities });
        const tag = Math.random().toString(36).slice(2, 8);
        const work = await stores.works.create({ titel: `Begehrt ${tag}`, exemplare: 3 });
        const people: number[] = [];
        for (let i = 0; i < 53; i++)
          people.push((await stores.persons.create({ vorname: 'Leser', nachname: `${tag} ${i}` })).id);
        const [lenders, readers] = [people.slice(0, 3), people.slice(3)];
        const lent: string[] = [];
        for (const id of lenders) {
          const r = await call('POST', `/ausleihen/${id}`, { werk: work.slug });
          assert.equal(r.status, 201, await r.text());
          lent.push(new URL(r.headers.get('location') ?? '').pathname);
        }
        const place = (id: number) => call('POST', `/vormerkungen?id=${id}`, { werk: `/werke/${work.slug}` });

        // 1. Three holds first, then 47 holds and the 3 returns at once.
        for (const id of readers.slice(0, 3)) assert.equal((await place(id)).status, 201);
        const responses = await Promise.all([
          ...readers.slice(3).map((id) => place(id)),
          ...lent.map((path) => call('DELETE', path)),
        ]);
        assert.deepEqual(
          responses.map((r) => r.status),
          [...readers.slice(3).map(() => 201), 204, 204, 204],
        );
        const placed = await Promise.all(
          responses.slice(0, 47).map(async (r) => (await r.json()) as { url: string; position: number }),
        );
        const queue = (await (await call('GET', `/werke/${work.slug}/vormerkungen`)).json()) as {
          vormerkung: { url: string; status: string; position: number | null; person: { url: string } }[];
        };
        const byId = (url: string) => Number(/\/(\d+)$/.exec(url)?.[1]);
        const ids = queue.vormerkung.map((h) => byId(h.url));
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
          'the queue is in the order holds were committed',
        );
        assert.deepEqual(
          queue.vormerkung.map((h) => [h.status, h.position]),
          [
            ['bereit', null],
            ['bereit', null],
            ['bereit', null],
            ...placed.map((_p, i) => ['wartend', i + 1]),
          ],
        );
        // Each concurrent hold was told its place when it was committed: behind the earlier ones and
        // the first three holds still waiting (fewer as the returns came in, never more).
        const told = placed.map((p) => [byId(p.url), p.position] as const).sort((a, b) => a[0] - b[0]);
        let ahead = 3;
        for (const [i, [, position]] of told.entries()) {
          const before = position - (i + 1);
          assert.ok(before >= 0 && before <= ahead, `hold ${i + 1} committed told place ${position}`);
          ahead = before;
        }

        // 2. Rounds: everyone waiting tries to borrow while the last round's borrowers return.
        let waiting = [...readers];
        let returning: string[] = [];
        for (let round = 0; waiting.length > 0; round++) {
          assert.ok(round < 60, `still waiting after 60 rounds: ${waiting.length}`);
          const attempts = waiting.map((id) => call('POST', `/ausleihen/${id}`, { werk: work.slug }));
          const returns = returning.map((path) => call('DELETE', path));
          const [got, back] = await Promise.all([Promise.all(attempts), Promise.all(returns)]);
          assert.ok(back.every((r) => r.status === 204));
          const statuses = got.map((r) => r.status);
          assert.ok(
            statuses.every((s) => s === 201 || s === 409),
            statuses.join(' '),
          );
          assert.ok(statuses.filter((s) => s === 201).length <= 3, statuses.join(' '));
          returning = got
            .filter((r) => r.status === 201)
            .map((r) => new URL(r.headers.get('location') ?? '').pathname);
          waiting = waiting.filter((_id, i) => statuses[i] !== 201);
        }
        for (const path of returning) assert.equal((await call('DELETE', path)).status, 204);

        // 3. What the database says.
        const holds = await database.db
          .selectFrom('holds')
          .select(['id', 'person_id', 'placed_at', 'copy_id', 'ready_at', 'end_reason'])
          .where('work_id', '=', work.id)
          .orderBy('placed_at')
          .orderBy('id')
          .execute();
        assert.equal(holds.length, 50);
        assert.deepEqual(
          holds.map((h) => h.id),
          [...holds.map((h) => h.id)].sort((a, b) => a - b),
        );
        assert.ok(
          holds.every((h) => h.end_reason === 'fulfilled'),
          'every hold was fulfilled',
        );
        for (let i = 1; i < holds.length; i++)
          assert.ok(holds[i - 1]!.ready_at! <= holds[i]!.ready_at!, `hold ${i} ready before hold ${i - 1}`);
        const loans = await database.db
          .selectFrom('loans')
          .select(['person_id', 'copy_id', 'borrowed_at', 'returned_at'])
          .where('work_id', '=', work.id)
          .orderBy('borrowed_at')
          .orderBy('id')
          .execute();
        assert.equal(loans.length, 53);
        for (const h of holds) {
          const loan = loans.filter((l) => l.person_id === h.person_id);
          assert.equal(loan.length, 1, `person ${h.person_id} borrowed once`);
          assert.equal(loan[0]!.copy_id, h.copy_id, 'the copy kept for them');
        }
        const byCopy = new Map<number, typeof loans>();
        for (const l of loans) byCopy.set(l.copy_id!, [...(byCopy.get(l.copy_id!) ?? []), l]);
        assert.equal(byCopy.size, 3);
        for (const list of byCopy.values())
          for (let i = 1; i < list.length; i++)
            assert.ok(
              list[i - 1]!.returned_at! <= list[i]!.borrowed_at,
              'a copy is in one open loan at a time',
            );
      });
    },
  );
}
