// ADR 0088/0098's guarantee for lending, randomized: two servers (each with its own
// representation cache) share one database — a SQLite file, and PostgreSQL when
// SHELFMARK_TEST_DATABASE_URL is set. In each of a bounded number of rounds, staff borrow,
// return, renew, place and cancel holds over HTTP on either server, while readers on either
// server read the pages that show lending: a work's page (availability, its copies' status,
// borrower and hold), a member's loans and holds lists, and one loan. A read must show, for
// every work it shows something of, what that work's lending was after the last write
// acknowledged before the read started, or after a later one, and never an older state than a
// read that finished before it started.
//
// What each state looks like is not modelled: after every acknowledged write, a third server
// with no representation cache (SHELFMARK_CACHE_MIB=0) reads every page's part about the
// written work — the truth for that write. Writes of one round are to different works, and
// what a page shows of a work changes only with writes to that work (the loan limit is never
// reached, no loan falls due, no hold runs out: the clock moves an hour a round), so a work's
// states form one sequence, and every page is checked per work against it.
// Dropping one lending dependency — `loans-of:` from a member's loans list, copies → work page —
// makes a read show an older state. Seeded randomness, a fixed number of operations, no sleeps.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../src/catalogue/accounts/index.ts';
import type { RunningServer } from '../../src/main.ts';
import { logIn } from '../kit/catalogue/app.ts';
import { seedCatalogue, seeded, startServers } from '../kit/catalogue/servers-on-one-database.ts';
import { freshSchema, pgTestUrl, skipUnlessPg, type FreshSchema } from '../support/pg.ts';

const ROUNDS = 70;
/** Copies per work: few, so works run out and holds are placed, kept and fulfilled. */
const COPIES = [1, 2, 1];
const MEMBERS = 4;
const STAFF = `Basic ${Buffer.from('personal:personal-pw').toString('base64')}`;

interface Catalogue {
  readonly works: readonly string[];
  /** Members: person slug and id (no account: staff lend for them). */
  readonly members: readonly { slug: string; id: number }[];
}

async function seed(databaseUrl: string | undefined, dataDir: string): Promise<Catalogue> {
  return seedCatalogue(databaseUrl, dataDir, async (stores) => {
    const members = [];
    for (let m = 0; m < MEMBERS; m++) {
      const created = await stores.persons.create({ slug: `m${m}`, vorname: 'M', nachname: String(m) });
      members.push({ slug: `m${m}`, id: created.id });
    }
    const staff = await stores.persons.create({ slug: 'staff', vorname: 'S', nachname: 'Staff' });
    await stores.accounts.add({
      personId: staff.id,
      username: 'personal',
      // scrypt's least cost the hash format accepts: every Basic request checks it.
      passwordHash: await hashPassword('personal-pw', { ln: 10, r: 8, p: 1 }),
      role: 'staff',
    });
    const works = [];
    for (const [w, copies] of COPIES.entries()) {
      await stores.works.create({ slug: `w${w}`, titel: `W${w}`, exemplare: copies });
      works.push(`w${w}`);
    }
    return { works, members };
  });
}

/** What a read saw of one work, under a key naming the page part (`work`, `loans:<m>`, …). */
interface Seen {
  readonly work: number;
  readonly key: string;
  readonly value: string;
}

interface Read {
  readonly label: string;
  readonly startSeq: number;
  readonly endSeq: number;
  /** Per work: the last write acknowledged when the read started. */
  readonly acknowledged: readonly number[];
  /** Per work: the writes begun when the read ended (it may show any of them). */
  readonly begun: readonly number[];
  readonly seen: readonly Seen[];
}

/** Who reads or writes: staff in a session or over Basic, or (a work's page) anyone. */
type Who = 'session' | 'basic' | 'anonymous';

interface Entry {
  readonly url: string;
  readonly werk: { readonly url: string };
}

function lendingSuite(
  open: (dataDir: string) => Promise<{ databaseUrl?: string; dispose(): Promise<void> }>,
) {
  return () => {
    let dir = '';
    /** The two servers under test, and the reference: the same, without a cache. */
    let started: RunningServer[] = [];
    let catalogue: Catalogue;
    let target: Awaited<ReturnType<typeof open>>;
    /** The servers' one clock: moved an hour after every round, never during one. */
    let now = Date.now();
    let origin = '';

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-fresh-lending-'));
      const dataDir = path.join(dir, 'data');
      const logDir = path.join(dir, 'logs');
      target = await open(dataDir);
      catalogue = await seed(target.databaseUrl, dataDir);
      const common = { databaseUrl: target.databaseUrl, dataDir, logDir, clock: () => now };
      started = [
        ...(await startServers(['1', '2'], common)),
        ...(await startServers(['reference'], { ...common, env: { SHELFMARK_CACHE_MIB: '0' } })),
      ];
      // The servers' own origin (their base URL), which a session's writes are sent from.
      const work = await started[2]!.app.inject({
        url: `/werke/${catalogue.works[0]}`,
        headers: { accept: 'application/json' },
      });
      origin = new URL((work.json() as { bestand: { url: string } }).bestand.url).origin;
    });
    after(async () => {
      for (const s of started) await s.stop(1000);
      await target?.dispose();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('every read of lending shows every write acknowledged before it started, and never goes back', async () => {
      const servers = started.slice(0, 2);
      const reference = started[2]!;
      const random = seeded(0x0098);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const { works, members } = catalogue;
      const workUrl = (w: number) => `/werke/${works[w]}`;
      // Staff in a session (logged in again every round, as the clock moves past its CSRF
      // token's age) or over Basic (answered from a kept response when it can, ADR 0069).
      let staff = await logIn(reference.app, origin, 'personal', 'personal-pw');
      const call = async (
        server: RunningServer,
        method: string,
        url: string,
        body?: unknown,
        as: Who = 'session',
      ) => {
        const response = await server.app.inject({
          method,
          url,
          headers: {
            ...(as === 'basic' && { authorization: STAFF }),
            ...(as === 'session' && { cookie: staff.cookie, 'x-csrf-token': staff.token, origin }),
            accept: 'application/json',
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          ...(body !== undefined && { payload: JSON.stringify(body) }),
        });
        return { status: response.statusCode, body: response.body, location: response.headers.location };
      };
      /** A list's entries of work `w`, in the list's order. */
      const partOf = (list: readonly Entry[], w: number) =>
        JSON.stringify(list.filter((e) => new URL(e.werk.url).pathname === workUrl(w)));
      const pageParts = {
        work: (w: number, status: number, body: string, anonymous = false): Seen[] => [
          { work: w, key: anonymous ? 'work-anonymous' : 'work', value: `${status} ${body}` },
        ],
        loans: (m: number, body: string): Seen[] => {
          const list = (JSON.parse(body) as { ausleihe: Entry[] }).ausleihe;
          return works.map((_, w) => ({ work: w, key: `loans:${m}`, value: partOf(list, w) }));
        },
        holds: (m: number, body: string): Seen[] => {
          const list = (JSON.parse(body) as { vormerkung: Entry[] }).vormerkung;
          return works.map((_, w) => ({ work: w, key: `holds:${m}`, value: partOf(list, w) }));
        },
      };

      /** Every loan made, by work (paths), in the order made. */
      const loansOf: string[][] = works.map(() => []);
      /** Per work: its states, from the reference server; states[w][k] after the k-th write. */
      const states: Map<string, string>[][] = works.map(() => []);
      const truthOf = async (w: number): Promise<Map<string, string>> => {
        const truth = new Map<string, string>();
        for (const anonymous of [false, true]) {
          const work = await call(
            reference,
            'GET',
            workUrl(w),
            undefined,
            anonymous ? 'anonymous' : 'session',
          );
          for (const s of pageParts.work(w, work.status, work.body, anonymous)) truth.set(s.key, s.value);
        }
        for (const [m, member] of members.entries()) {
          const loans = await call(reference, 'GET', `/ausleihen/${member.id}`);
          assert.equal(loans.status, 200, loans.body);
          for (const s of pageParts.loans(m, loans.body)) if (s.work === w) truth.set(s.key, s.value);
          const holds = await call(reference, 'GET', `/personen/${member.slug}/vormerkungen`);
          assert.equal(holds.status, 200, holds.body);
          for (const s of pageParts.holds(m, holds.body)) if (s.work === w) truth.set(s.key, s.value);
        }
        const previous = states[w]!.at(-1);
        for (const loan of loansOf[w]!) {
          // A returned loan answers 410 from then on: read again only open ones.
          const before = previous?.get(`loan:${loan}`);
          if (before?.startsWith('410 ')) {
            truth.set(`loan:${loan}`, before);
            continue;
          }
          const answer = await call(reference, 'GET', loan);
          truth.set(`loan:${loan}`, `${answer.status} ${answer.body}`);
        }
        return truth;
      };
      /** The open loans and holds of a work's latest state: what a return, renewal or cancel acts on. */
      const openOf = (w: number) => {
        const latest = states[w]!.at(-1)!;
        const urls = (prefix: string) =>
          members.flatMap((_, m) =>
            (JSON.parse(latest.get(`${prefix}:${m}`)!) as Entry[]).map((e) => new URL(e.url).pathname),
          );
        return { loans: urls('loans'), holds: urls('holds') };
      };

      let seq = 0;
      const begun = works.map(() => 0);
      const acknowledged = works.map(() => 0);
      /** Per work: the oldest state a read may still show (what earlier rounds acknowledged or read). */
      const floor = works.map(() => 0);
      const done = new Map<string, number>();
      const count = (what: string) => done.set(what, (done.get(what) ?? 0) + 1);

      const write = (w: number): (() => Promise<void>) => {
        // Everything chosen now, in the seeded order; nothing random once the ops run.
        const open = openOf(w);
        const member = pick(members);
        const server = pick(servers);
        const as: Who = random() < 0.5 ? 'basic' : 'session';
        const loan = open.loans.length > 0 ? pick(open.loans) : undefined;
        const hold = open.holds.length > 0 ? pick(open.holds) : undefined;
        const roll = random();
        const send = (method: string, url: string, body?: unknown) => call(server, method, url, body, as);
        const act = async (): Promise<
          [string, number[], { status: number; body: string; location?: unknown }]
        > => {
          if (roll < 0.3 || (roll < 0.65 && loan === undefined))
            return [
              'borrow',
              [201, 409],
              await send('POST', `/ausleihen/${member.id}`, { werk: workUrl(w) }),
            ];
          if (roll < 0.5) return ['return', [204], await send('DELETE', loan!)];
          if (roll < 0.65) return ['renew', [200, 409], await send('POST', `${loan!}/verlaengerung`)];
          if (roll < 0.9 || hold === undefined)
            return [
              'hold',
              [201, 409],
              await send('POST', `/personen/${member.slug}/vormerkungen`, { werk: workUrl(w) }),
            ];
          return ['cancel', [204], await send('DELETE', hold)];
        };
        return async () => {
          const k = ++begun[w]!;
          const [what, expected, answer] = await act();
          assert.ok(
            expected.includes(answer.status),
            `${what} on ${works[w]}: ${answer.status} ${answer.body}`,
          );
          count(`${what} ${answer.status}`);
          if (what === 'borrow' && answer.status === 201)
            loansOf[w]!.push(new URL(String(answer.location)).pathname);
          acknowledged[w] = k;
          states[w]![k] = await truthOf(w);
        };
      };

      const reads: Read[] = [];
      const read = async () => {
        // Everything chosen at the start, in the seeded order.
        const server = pick(servers);
        const as: Who = random() < 0.5 ? 'basic' : 'session';
        const roll = random();
        const m = Math.floor(random() * MEMBERS);
        const w = Math.floor(random() * works.length);
        const known = loansOf.flatMap((loans, v) => loans.map((loan) => ({ loan, w: v })));
        const loan = known.length > 0 ? pick(known) : undefined;
        const startSeq = ++seq;
        const before = [...acknowledged];
        let url: string;
        let seen: () => Seen[];
        if (roll < 0.35 || (roll >= 0.8 && loan === undefined)) {
          // A work's page, anonymous too (what anyone sees: no borrower's or holder's name).
          const anonymous = roll < 0.15;
          url = workUrl(w);
          const answer = await call(server, 'GET', url, undefined, anonymous ? 'anonymous' : as);
          seen = () => pageParts.work(w, answer.status, answer.body, anonymous);
        } else if (roll < 0.55) {
          url = `/ausleihen/${members[m]!.id}`;
          const answer = await call(server, 'GET', url, undefined, as);
          assert.equal(answer.status, 200, answer.body);
          seen = () => pageParts.loans(m, answer.body);
        } else if (roll < 0.8) {
          url = `/personen/${members[m]!.slug}/vormerkungen`;
          const answer = await call(server, 'GET', url, undefined, as);
          assert.equal(answer.status, 200, answer.body);
          seen = () => pageParts.holds(m, answer.body);
        } else {
          url = loan!.loan;
          const answer = await call(server, 'GET', url, undefined, as);
          seen = () => [{ work: loan!.w, key: `loan:${url}`, value: `${answer.status} ${answer.body}` }];
        }
        reads.push({
          label: `${url} (server ${servers.indexOf(server) + 1}, ${as})`,
          startSeq,
          endSeq: ++seq,
          acknowledged: before,
          begun: [...begun],
          seen: seen(),
        });
      };

      /**
       * After a round, when every state it wrote is known: each read, in the order reads ended,
       * against the states it may show — from the last acknowledged before it started, or shown
       * by a read that ended before it started, up to the last begun when it ended.
       */
      const check = (round: Read[]) => {
        const shownBy = new Map<Read, number[]>();
        for (const r of [...round].sort((a, b) => a.endSeq - b.endSeq)) {
          const lowest = works.map((_, w) => Math.max(floor[w]!, r.acknowledged[w]!));
          for (const [earlier, shown] of shownBy)
            if (earlier.endSeq < r.startSeq)
              for (const [w, k] of shown.entries()) lowest[w] = Math.max(lowest[w]!, k);
          const shown = works.map(() => 0);
          for (const s of r.seen) {
            let k = lowest[s.work]!;
            while (k <= r.begun[s.work]! && states[s.work]![k]!.get(s.key) !== s.value) k += 1;
            if (k > r.begun[s.work]!) {
              const older = states[s.work]!.findLastIndex(
                (state, j) => j < lowest[s.work]! && state.get(s.key) === s.value,
              );
              assert.fail(
                `${r.label} showed ${s.key} of ${works[s.work]} as ${s.value}\n` +
                  (older >= 0 ? `— its state after write ${older}, ` : '— no state it had, ') +
                  `but write ${lowest[s.work]} was acknowledged or read before it started; ` +
                  `states ${lowest[s.work]}..${r.begun[s.work]}:\n` +
                  states[s.work]!.slice(lowest[s.work], r.begun[s.work]! + 1)
                    .map((state) => state.get(s.key))
                    .join('\n'),
              );
            }
            shown[s.work] = Math.max(shown[s.work]!, k);
          }
          shownBy.set(r, shown);
        }
        for (const shown of shownBy.values())
          for (const [w, k] of shown.entries()) floor[w] = Math.max(floor[w]!, k);
        for (const [w, k] of acknowledged.entries()) floor[w] = Math.max(floor[w]!, k);
      };

      for (const [w] of works.entries()) states[w]![0] = await truthOf(w);
      for (let round = 0; round < ROUNDS; round++) {
        // One write per work at a time, so each work's states follow one another.
        const written = new Set<number>();
        const writerCount = 1 + Math.floor(random() * 3);
        for (let i = 0; i < writerCount; i++) written.add(Math.floor(random() * works.length));
        const ops = [...written].map(write);
        const readerCount = 3 + Math.floor(random() * 6);
        for (let i = 0; i < readerCount; i++) ops.push(read);
        // Shuffled, and started together: reads race the writes.
        for (let i = ops.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [ops[i], ops[j]] = [ops[j]!, ops[i]!];
        }
        reads.length = 0;
        await Promise.all(ops.map((op) => op()));
        // And a read after the round: it must see all of it.
        await read();
        check(reads);
        now += 3_600_000;
        staff = await logIn(reference.app, origin, 'personal', 'personal-pw');
      }
      // Every kind of write took effect at least once, and the caches answered reads.
      for (const what of ['borrow 201', 'borrow 409', 'return 204', 'renew 200', 'hold 201', 'cancel 204'])
        assert.ok(done.has(what), `no ${what}: ${JSON.stringify([...done])}`);
      const hits = servers.reduce((n, s) => n + s.representationCache.stats().hits, 0);
      assert.ok(hits > 0, 'no read was answered from a cache: the test would not see a stale one');
    });
  };
}

describe(
  'fresh lending reads under random loans and holds, two servers on one SQLite file',
  lendingSuite(async () => ({ async dispose() {} })),
);

describe(
  'fresh lending reads under random loans and holds, two servers on one PostgreSQL schema',
  skipUnlessPg,
  lendingSuite(async () => {
    const schema: FreshSchema = await freshSchema(pgTestUrl());
    return { databaseUrl: schema.url, dispose: () => schema.drop() };
  }),
);
