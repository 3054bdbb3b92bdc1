// ADR 0088's guarantee, randomized: two servers (each with its own representation cache) share
// one database — a SQLite file, and PostgreSQL when SHELFMARK_TEST_DATABASE_URL is set. In each
// of a bounded number of rounds, writers (staff PATCHing a work's title over HTTP on either
// server; an operator's SQL on a connection of its own renaming a person or moving a copy) and
// anonymous readers of work and person pages on either server run concurrently. Every value a
// write stores carries a number that grows per field. A read must show, for each field its page
// shows, at least the number of the last write acknowledged before the read started, and never
// less than a read that finished before it started. The copies → work page, person → work page
// and work → person page dependencies are each exercised; dropping any of them from the change
// triggers or the resources' declarations makes a read show an older value. Seeded randomness,
// a fixed number of operations, no sleeps.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { hashPassword } from '../../src/catalogue/accounts/index.ts';
import type { RunningServer } from '../../src/main.ts';
import { seedCatalogue, seeded, startServers } from '../kit/catalogue/servers-on-one-database.ts';
import { freshSchema, pgTestUrl, skipUnlessPg, type FreshSchema } from '../support/pg.ts';

const ROUNDS = 60;
const WORKS = 4;
const PERSONS = 3;
const STAFF = `Basic ${Buffer.from('personal:personal-pw').toString('base64')}`;

interface Catalogue {
  /** Slugs; work i has person i % PERSONS and copies whose ids are listed. */
  readonly works: { slug: string; id: number; person: number; copies: number[] }[];
  readonly persons: { slug: string; id: number }[];
}

/** An operator's SQL on a connection of its own: no server takes part in the write. */
interface Operator {
  run(text: string, parameters: (string | number)[]): Promise<void>;
  close(): Promise<void>;
}

/** Fields: `T<work>` (title), `V<person>` (first name), `S<copy>` (a copy's location). */
const field = {
  title: (work: number) => `T${work}`,
  name: (person: number) => `V${person}`,
  place: (copy: number) => `S${copy}`,
};
/** The value written: the field, a dash, the write's number. */
const valueOf = (f: string, k: number) => `${f}-${k}`;

/** The numbers of the fields a body shows (the highest when a field shows twice). */
function shown(body: string, fields: readonly string[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const f of fields) {
    for (const m of body.matchAll(new RegExp(`\\b${f}-(\\d+)\\b`, 'g')))
      seen.set(f, Math.max(seen.get(f) ?? -1, Number(m[1])));
  }
  return seen;
}

async function seed(databaseUrl: string | undefined, dataDir: string): Promise<Catalogue> {
  return seedCatalogue(databaseUrl, dataDir, async (stores, database) => {
    const persons = [];
    for (let p = 0; p < PERSONS; p++) {
      const created = await stores.persons.create({
        slug: `p${p}`,
        vorname: valueOf(field.name(p), 0),
        nachname: 'N',
      });
      persons.push({ slug: `p${p}`, id: created.id });
    }
    const staff = await stores.persons.create({ slug: 'staff', vorname: 'S', nachname: 'Staff' });
    await stores.accounts.add({
      personId: staff.id,
      username: 'personal',
      passwordHash: await hashPassword('personal-pw'),
      role: 'staff',
    });
    const works = [];
    for (let w = 0; w < WORKS; w++) {
      const person = w % PERSONS;
      const created = await stores.works.create({
        slug: `w${w}`,
        titel: valueOf(field.title(w), 0),
        exemplare: 2,
        personIds: [persons[person]!.id],
      });
      const copies = await database.db
        .selectFrom('copies')
        .select('id')
        .where('work_id', '=', created.id)
        .execute();
      works.push({ slug: `w${w}`, id: created.id, person, copies: copies.map((c) => c.id) });
    }
    for (const w of works)
      for (const c of w.copies)
        await database.db
          .updateTable('copies')
          .set({ standort: valueOf(field.place(c), 0) })
          .where('id', '=', c)
          .execute();
    return { works, persons };
  });
}

function randomSuite(
  open: (
    dataDir: string,
  ) => Promise<{ databaseUrl?: string; operator: () => Promise<Operator>; dispose(): Promise<void> }>,
) {
  return () => {
    let dir = '';
    let servers: RunningServer[] = [];
    let catalogue: Catalogue;
    let operator: Operator;
    let target: Awaited<ReturnType<typeof open>>;

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-fresh-reads-'));
      target = await open(path.join(dir, 'data'));
      catalogue = await seed(target.databaseUrl, path.join(dir, 'data'));
      servers = await startServers(['1', '2'], {
        databaseUrl: target.databaseUrl,
        dataDir: path.join(dir, 'data'),
        logDir: path.join(dir, 'logs'),
      });
      operator = await target.operator();
    });
    after(async () => {
      await operator?.close();
      for (const s of servers) await s.stop(1000);
      await target?.dispose();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('every read shows every write acknowledged before it started, and never goes back', async () => {
      const random = seeded(0x0088);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      /** The number of the last acknowledged write per field. */
      const acknowledged = new Map<string, number>();
      /** The highest number a finished read showed per field. */
      const finished = new Map<string, number>();
      const next = new Map<string, number>();
      const number = (f: string) => {
        const k = (next.get(f) ?? 0) + 1;
        next.set(f, k);
        return k;
      };
      const allCopies = catalogue.works.flatMap((w) => w.copies);
      const fieldsOfWork = (w: Catalogue['works'][number]) => [
        field.title(catalogue.works.indexOf(w)),
        field.name(w.person),
        ...w.copies.map(field.place),
      ];
      const fieldsOfPerson = (p: number) => [
        field.name(p),
        ...catalogue.works.filter((w) => w.person === p).map((w) => field.title(catalogue.works.indexOf(w))),
      ];
      let reads = 0;
      let writes = 0;

      const writers: (() => { field: string; write: () => Promise<void> })[] = [
        () => {
          const w = Math.floor(random() * WORKS);
          const f = field.title(w);
          return {
            field: f,
            write: async () => {
              const k = number(f);
              const response = await pick(servers).app.inject({
                method: 'PATCH',
                url: `/werke/${catalogue.works[w]!.slug}`,
                headers: {
                  authorization: STAFF,
                  'content-type': 'application/merge-patch+json',
                  accept: 'application/json',
                },
                payload: JSON.stringify({ titel: valueOf(f, k) }),
              });
              assert.equal(response.statusCode, 200, response.body);
              acknowledged.set(f, k);
            },
          };
        },
        () => {
          const p = Math.floor(random() * PERSONS);
          const f = field.name(p);
          return {
            field: f,
            write: async () => {
              const k = number(f);
              await operator.run('update persons set vorname = $1 where id = $2', [
                valueOf(f, k),
                catalogue.persons[p]!.id,
              ]);
              acknowledged.set(f, k);
            },
          };
        },
        () => {
          const c = pick(allCopies);
          const f = field.place(c);
          return {
            field: f,
            write: async () => {
              const k = number(f);
              await operator.run('update copies set standort = $1 where id = $2', [valueOf(f, k), c]);
              acknowledged.set(f, k);
            },
          };
        },
      ];

      const read = async () => {
        const onWork = random() < 0.6;
        const server = pick(servers);
        const w = pick(catalogue.works);
        const p = Math.floor(random() * PERSONS);
        const url = onWork ? `/werke/${w.slug}` : `/personen/${catalogue.persons[p]!.slug}`;
        const fields = onWork ? fieldsOfWork(w) : fieldsOfPerson(p);
        const atLeast = new Map(
          fields.map((f) => [f, Math.max(acknowledged.get(f) ?? 0, finished.get(f) ?? 0)]),
        );
        const response = await server.app.inject({
          method: 'GET',
          url,
          headers: { accept: 'application/json' },
        });
        assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
        const seen = shown(response.body, fields);
        for (const f of fields) {
          const k = seen.get(f);
          assert.ok(k !== undefined, `${url} shows ${f}: ${response.body}`);
          assert.ok(
            k >= atLeast.get(f)!,
            `${url} (server ${servers.indexOf(server) + 1}) showed ${f}-${k}, but ${f}-${atLeast.get(f)} was acknowledged or read before it started`,
          );
          finished.set(f, Math.max(finished.get(f) ?? 0, k));
        }
        reads += 1;
      };

      for (let round = 0; round < ROUNDS; round++) {
        // One writer per field at a time, so each field's numbers are stored in order.
        const planned = new Map<string, () => Promise<void>>();
        const writerCount = 1 + Math.floor(random() * 3);
        for (let i = 0; i < writerCount; i++) {
          const { field: f, write } = pick(writers)();
          if (!planned.has(f)) planned.set(f, write);
        }
        const ops: (() => Promise<void>)[] = [...planned.values()];
        const readerCount = 2 + Math.floor(random() * 5);
        for (let i = 0; i < readerCount; i++) ops.push(read);
        // Shuffled, and started together: reads race the writes, and their checks use what
        // was acknowledged when each one started.
        for (let i = ops.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [ops[i], ops[j]] = [ops[j]!, ops[i]!];
        }
        writes += planned.size;
        await Promise.all(ops.map((op) => op()));
        // And reads after the round: each must see all of it.
        await read();
      }
      assert.ok(writes >= ROUNDS && reads >= ROUNDS * 3, `${writes} writes, ${reads} reads`);
      // The caches were used: most reads of an unchanged page are hits.
      const hits = servers.reduce((n, s) => n + s.representationCache.stats().hits, 0);
      assert.ok(hits > 0, 'no read was answered from a cache: the test would not see a stale one');
    });
  };
}

describe(
  'fresh reads under random writes, two servers on one SQLite file',
  randomSuite(async (dataDir) => {
    const file = path.join(dataDir, 'shelfmark.db');
    return {
      async operator() {
        return {
          async run(text: string, parameters: (string | number)[]) {
            const db = new DatabaseSync(file);
            try {
              db.prepare(text.replaceAll(/\$\d/g, '?')).run(...parameters);
            } finally {
              db.close();
            }
          },
          async close() {},
        };
      },
      async dispose() {},
    };
  }),
);

describe(
  'fresh reads under random writes, two servers on one PostgreSQL schema',
  skipUnlessPg,
  randomSuite(async () => {
    const schema: FreshSchema = await freshSchema(pgTestUrl());
    return {
      databaseUrl: schema.url,
      async operator() {
        const client = new pg.Client(schema.config);
        await client.connect();
        return {
          async run(text: string, parameters: (string | number)[]) {
            await client.query(text, parameters);
          },
          close: () => client.end(),
        };
      },
      dispose: () => schema.drop(),
    };
  }),
);
