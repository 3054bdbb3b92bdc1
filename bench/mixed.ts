// `npm run bench -- --mixed`: reads stay fast while the library lends (issue 24, ADR 0088).
// Random person JSON reads at full speed (wrk, the shared harness's random-slug script) on the
// harness's catalogue (10,000 persons, 50,000 works) while a staff client sends a steady write
// mix — borrow, return, renew, hold, edit a work — at `--write-rate` per second; beside the
// Fastify peer serving the same reads in the same run. Prints read CPU per request (the server's
// processes, writes included), the representation cache's hit rate over the measured window
// (SIGUSR2 → SHELFMARK_BENCH_STATS_DIR), read p50/p99 and write p50/p99.
// `npm run bench -- --pg-writers N --pg URL`: N staff clients PATCHing distinct works in a loop.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import pg from 'pg';
import { hashPassword } from '../src/catalogue/accounts/index.ts';
import type { DB } from '../src/catalogue/tables.ts';
import { detectCapabilities, isPostgresUrl, openDatabase, placeUnranked } from '../src/storage/index.ts';
import { catalogueKey, cleanEnv } from './catalogue.ts';
import type { BenchOptions } from './options.ts';
import { copyHarness, sharedBenchDir } from './peers.ts';
import { profileNodeArgs } from './profile.ts';
import { leanClient } from './http-client.ts';
import { childPids, freePort, startChildServer, treeCpuSeconds, type ChildServer } from './server.ts';

const STAFF = { username: 'bench-staff', password: 'bench-staff-password' };
const AUTH = `Basic ${Buffer.from(`${STAFF.username}:${STAFF.password}`).toString('base64')}`;

interface Catalogue {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly slugsFile: string;
  readonly benchDb: string;
  readonly harness: string;
  /** Works (id, slug) and members (person id, slug) to write for. */
  readonly works: { id: number; slug: string }[];
  readonly members: { id: number; slug: string }[];
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status})`);
}

/** The harness copy, bench.db and Shelfmark's database (a fresh SQLite copy, or the PostgreSQL one). */
async function prepare(root: string, opts: BenchOptions, say: (m: string) => void): Promise<Catalogue> {
  // Under this checkout's tmp/, also when another checkout is served (BENCH_SERVER_ROOT).
  const work = path.join(import.meta.dirname, '..', 'tmp', 'mixed-bench');
  const harness = path.join(work, 'harness');
  if (!fs.existsSync(path.join(harness, 'run.sh')))
    copyHarness(sharedBenchDir(path.join(import.meta.dirname, '..'), process.env), harness);
  if (!fs.existsSync(path.join(harness, 'node_modules', 'fastify'))) {
    say('installing the peers (npm ci in the harness copy) …');
    run('npm', ['ci', '--no-audit', '--no-fund'], harness, process.env);
  }
  const benchDb = path.join(harness, 'bench.db');
  if (!fs.existsSync(benchDb)) {
    say('building bench.db …');
    run(process.execPath, ['make-db.mjs', benchDb], harness, process.env);
  }
  const env = { ...cleanEnv(), SHELFMARK_ROOT: root };
  const dataDir = fs.mkdtempSync(path.join(work, 'run-'));
  let databaseUrl: string | undefined;
  let slugsFile: string;
  if (opts.pg) {
    databaseUrl = opts.pg;
    slugsFile = path.join(work, `pg-${new URL(opts.pg).pathname.slice(1) || 'default'}.slugs.txt`);
    if (!fs.existsSync(slugsFile)) {
      say('loading the catalogue into PostgreSQL …');
      run(process.execPath, ['make-shelfmark-db.mjs', opts.pg, benchDb, slugsFile], harness, env);
    }
  } else {
    const pristine = path.join(work, `shelfmark-${catalogueKey(root, 50_000)}`);
    const file = path.join(pristine, 'shelfmark.db');
    slugsFile = path.join(pristine, 'slugs.txt');
    if (!fs.existsSync(file)) {
      say('loading the catalogue into SQLite …');
      fs.mkdirSync(pristine, { recursive: true });
      run(process.execPath, ['make-shelfmark-db.mjs', file, benchDb, slugsFile], harness, env);
    }
    for (const name of fs.readdirSync(pristine))
      if (name.startsWith('shelfmark.db'))
        fs.copyFileSync(path.join(pristine, name), path.join(dataDir, name));
  }
  await addStaff(root, databaseUrl ?? path.join(dataDir, 'shelfmark.db'));
  const { works, members } = await writeTargets(databaseUrl, path.join(dataDir, 'shelfmark.db'));
  return { databaseUrl, dataDir, slugsFile, benchDb, harness, works, members };
}

/** The staff account the write mix uses, and a copy of each work (the harness's loader writes none). */
async function addStaff(root: string, url: string): Promise<void> {
  void root;
  const database = await openDatabase<DB>(url);
  try {
    const at = new Date().toISOString();
    await sql`insert into copies (work_id, nummer, signatur, barcode, standort, created_at, updated_at)
      select id, 1, 'B ' || id, 'bench-' || id, 'Magazin', ${at}, ${at} from works w
      where not exists (select 1 from copies c where c.work_id = w.id)`.execute(database.db);
    // The harness's loader writes no list ranks (ADR 0052); the product's own loaders rank what
    // they load. Ranked once here, or the first edit of a work renumbers all 50,000 inside the
    // measured window and every write queues behind it.
    const capabilities = detectCapabilities(database.db);
    await database.db.transaction().execute(async (trx) => {
      await placeUnranked(trx, capabilities, 'works');
      await placeUnranked(trx, capabilities, 'persons');
    });
    // The first member becomes the staff account (plain SQL: the same for any checkout's schema).
    const hash = await hashPassword(STAFF.password);
    await sql`update accounts set username = ${STAFF.username}, role = 'staff', password_hash = ${hash}
      where person_id = (select min(person_id) from accounts)
        and not exists (select 1 from accounts where username = ${STAFF.username})`.execute(database.db);
    // A scratch database serves run after run: what earlier runs' writes left is vacuumed, and
    // the statistics are fresh, whether or not autovacuum runs (it may be off, as on CI machines).
    if (isPostgresUrl(url)) await sql`vacuum analyze`.execute(database.db);
  } finally {
    await database.close();
  }
}

async function writeTargets(databaseUrl: string | undefined, file: string) {
  const worksSql = 'select id, slug from works where deleted_at is null order by id limit 20000';
  const membersSql = `select p.id, p.slug from persons p join accounts a on a.person_id = p.id
    where a.role = 'member' and p.deleted_at is null order by p.id limit 5000`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return {
        works: (await client.query<{ id: number; slug: string }>(worksSql)).rows,
        members: (await client.query<{ id: number; slug: string }>(membersSql)).rows,
      };
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return {
      works: db.prepare(worksSql).all() as unknown as { id: number; slug: string }[],
      members: db.prepare(membersSql).all() as unknown as { id: number; slug: string }[],
    };
  } finally {
    db.close();
  }
}

/** mulberry32: the write mix is the same from run to run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface WriteStats {
  readonly latencies: Map<string, number[]>;
  readonly refused: Map<string, number>;
  failed: number;
}

/** The staff client: one write of the mix every 1/rate seconds until stopped. */
function writeMix(
  origin: string,
  catalogue: Catalogue,
  rate: number,
  seed: number,
): { stop(): Promise<WriteStats> } {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const stats: WriteStats = { latencies: new Map(), refused: new Map(), failed: 0 };
  /** Open loans this client made: the loan's path, its work's slug and the borrower's id. */
  const loans: { path: string; work: string; member: number }[] = [];
  const inFlight = new Set<Promise<void>>();
  let edits = 0;
  const send = async (
    kind: string,
    method: string,
    url: string,
    body?: unknown,
    type = 'application/json',
  ) => {
    const started = performance.now();
    try {
      const response = await fetch(origin + url, {
        method,
        headers: {
          authorization: AUTH,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': type }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
      });
      await response.arrayBuffer();
      const ms = performance.now() - started;
      const list = stats.latencies.get(kind) ?? [];
      list.push(ms);
      stats.latencies.set(kind, list);
      if (response.status >= 400)
        stats.refused.set(
          `${kind} ${response.status}`,
          (stats.refused.get(`${kind} ${response.status}`) ?? 0) + 1,
        );
      return response;
    } catch {
      stats.failed += 1;
      return undefined;
    }
  };
  const one = async () => {
    const r = random();
    if (r < 0.3 || loans.length === 0) {
      const member = pick(catalogue.members);
      const work = pick(catalogue.works).slug;
      const response = await send('borrow', 'POST', `/ausleihen/${member.id}`, { werk: work });
      const location = response?.headers.get('location');
      if (response?.status === 201 && location)
        loans.push({ path: new URL(location, origin).pathname, work, member: member.id });
    } else if (r < 0.55) {
      const loan = loans.splice(Math.floor(random() * loans.length), 1)[0]!;
      await send('return', 'DELETE', loan.path);
    } else if (r < 0.7) {
      await send('renew', 'POST', `${pick(loans).path}/verlaengerung`);
    } else if (r < 0.8) {
      // As at a desk: a member asks for a work that is out. A hold on a work with a free copy
      // is refused (409), so the hold goes on the work of a loan, for someone else.
      const loan = pick(loans);
      const others = catalogue.members.filter((m) => m.id !== loan.member);
      await send('hold', 'POST', `/personen/${pick(others).slug}/vormerkungen`, { werk: loan.work });
    } else {
      const work = pick(catalogue.works);
      await send(
        'edit',
        'PATCH',
        `/werke/${work.slug}`,
        { jahr: 1800 + (edits++ % 200) },
        'application/merge-patch+json',
      );
    }
  };
  const timer =
    rate > 0
      ? setInterval(() => {
          const p = one().finally(() => inFlight.delete(p));
          inFlight.add(p);
        }, 1000 / rate)
      : undefined;
  return {
    async stop() {
      if (timer) clearInterval(timer);
      await Promise.all(inFlight);
      return stats;
    },
  };
}

interface ReadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * wrk with the harness's random-slug script, seeded per thread (bench/wrk): random persons as
 * JSON. Each call its own `seed`: the measured window must not replay the warm-up's slugs.
 */
function wrkReads(
  origin: string,
  catalogue: Catalogue,
  opts: BenchOptions,
  seconds: number,
  seed: number,
): Promise<ReadResult> {
  const args = [
    `-t${Math.min(opts.threads, opts.connections)}`,
    `-c${opts.connections}`,
    `-d${seconds}s`,
    '-s',
    path.join(import.meta.dirname, 'wrk', 'random-slug-per-thread.lua'),
    origin,
    '--',
    catalogue.slugsFile,
    'json',
    String(seed),
  ];
  const env = { ...process.env, RANDOM_SLUG_LUA: path.join(catalogue.harness, 'wrk', 'random-slug.lua') };
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      const m = /RESULT requests=(\d+) duration_us=(\d+).* p50_us=(\d+).* p99_us=(\d+)/.exec(out);
      if (!m) return reject(new Error(`wrk: no RESULT line:\n${out}`));
      resolve({
        requests: Number(m[1]),
        seconds: Number(m[2]) / 1e6,
        p50Ms: Number(m[3]) / 1000,
        p99Ms: Number(m[4]) / 1000,
      });
    });
  });
}

interface CacheCounts {
  readonly hits: number;
  readonly misses: number;
  /** The misses by why (the cache's missesBy, ADR 0105). */
  readonly missesBy: Map<string, number>;
}

/** The representation caches' hits and misses so far, summed over the server's processes. */
async function cacheCounts(server: ChildServer, statsDir: string): Promise<CacheCounts> {
  const pids = [server.pid, ...childPids(server.pid)];
  for (const f of fs.readdirSync(statsDir)) fs.rmSync(path.join(statsDir, f));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGUSR2');
    } catch {
      // gone
    }
  }
  // The processes answer by writing a file each; wait until every serving one has.
  let hits = 0;
  let misses = 0;
  const missesBy = new Map<string, number>();
  for (let attempt = 0; attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const files = fs.readdirSync(statsDir);
    if (files.length >= (pids.length > 1 ? pids.length - 1 : 1)) {
      for (const f of files) {
        const s = JSON.parse(fs.readFileSync(path.join(statsDir, f), 'utf8')) as {
          hits: number;
          misses: number;
          missesBy?: Record<string, number>;
        };
        hits += s.hits;
        misses += s.misses;
        for (const [why, n] of Object.entries(s.missesBy ?? {}))
          missesBy.set(why, (missesBy.get(why) ?? 0) + n);
      }
      break;
    }
  }
  return { hits, misses, missesBy };
}

/** The window's misses by why: `after` less `before`, largest first. */
function missesByWhy(before: CacheCounts, after: CacheCounts): string {
  const rows = [...after.missesBy]
    .map(([why, n]) => [why, n - (before.missesBy.get(why) ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return rows.map(([why, n]) => `${why} ${n}`).join(', ') || 'none';
}

function startFastify(
  catalogue: Catalogue,
  port: number,
  logDir: string,
): Promise<{ pid: number; origin: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['servers/fastify.mjs'], {
    cwd: catalogue.harness,
    env: {
      ...process.env,
      PORT: String(port),
      BENCH_DB: catalogue.benchDb,
      ACCESS_LOG: path.join(logDir, 'fastify.log'),
    },
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  return (async () => {
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`${origin}/personen/x.json`).then(
        () => true,
        () => false,
      );
      if (ok) return { pid: child.pid!, origin, stop: () => void child.kill('SIGTERM') };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    throw new Error('the Fastify peer did not start');
  })();
}

/** The window's seed and the warm-up rounds' (WARMUP_SEED + round): never the same slugs in the same order. */
const WINDOW_SEED = 1;
const WARMUP_SEED = 100;
/** The write mix's warm-up sequence; each measured round has its own (WRITE_SEED + round). */
const WRITE_WARMUP_SEED = 23;
const WRITE_SEED = 24;
/** Warm-up rounds go on until fewer of a round's lookups than this were cold (or MAX_WARMUP_ROUNDS). */
const WARM_COLD_SHARE = 0.01;
const MAX_WARMUP_ROUNDS = 12;

const coldOf = (c: CacheCounts) => c.missesBy.get('cold') ?? 0;

/**
 * Reads until every worker's cache holds nearly every person: each worker renders each person
 * once (a cold miss) before it can hit, and random reads reach the last few slowly — with two
 * workers a fixed warm-up left a tenth of the window's reads cold. Rounds of `--warmup` seconds
 * until a round's cold misses are under WARM_COLD_SHARE of its lookups; the window's cold misses
 * are still counted (and shown by why).
 */
async function warmUp(
  server: ChildServer,
  catalogue: Catalogue,
  opts: BenchOptions,
  statsDir: string,
  say: (m: string) => void,
): Promise<{ rounds: number; coldShare: number }> {
  let rounds = 0;
  let coldShare = 1;
  let before = await cacheCounts(server, statsDir);
  while (rounds < MAX_WARMUP_ROUNDS && coldShare >= WARM_COLD_SHARE) {
    say(`  warming up (${opts.warmupSeconds} s of reads, round ${rounds + 1}) …`);
    await wrkReads(server.origin, catalogue, opts, opts.warmupSeconds, WARMUP_SEED + rounds);
    const after = await cacheCounts(server, statsDir);
    const lookups = after.hits + after.misses - before.hits - before.misses;
    coldShare = (coldOf(after) - coldOf(before)) / Math.max(1, lookups);
    before = after;
    rounds += 1;
  }
  return { rounds, coldShare };
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** The machine's CPU times from /proc/stat (all cores): total and stolen by the hypervisor. */
function cpuTimes(): { total: number; steal: number; busy: number } {
  const fields = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // Busy seconds: all but idle and iowait, in the kernel's clock ticks (USER_HZ, 100 on Linux).
  const busy = (total - (fields[3] ?? 0) - (fields[4] ?? 0)) / 100;
  return { total, steal: fields[7] ?? 0, busy };
}
const stealSince = (from: { total: number; steal: number }) => {
  const now = cpuTimes();
  return (100 * (now.steal - from.steal)) / Math.max(1, now.total - from.total);
};

/** Hits as a share of lookups, for the table. */
const hitRate = (hits: number, misses: number): string =>
  `${((100 * hits) / Math.max(1, hits + misses)).toFixed(1)} %`;

/** Merges `from` into `into` (write latencies and refusals over several windows). */
function addWrites(into: WriteStats, from: WriteStats): void {
  for (const [k, xs] of from.latencies) into.latencies.set(k, [...(into.latencies.get(k) ?? []), ...xs]);
  for (const [k, n] of from.refused) into.refused.set(k, (into.refused.get(k) ?? 0) + n);
  into.failed += from.failed;
}

/**
 * Both servers run side by side; each round measures the Fastify peer's window (reads only),
 * then Shelfmark's (the same reads beside the write mix). With --rounds N the ratio is each
 * round's against its own peer window and the median is reported: on a shared machine the CPU a
 * request costs drifts by up to 2× from minute to minute, for both servers alike (steal %
 * per window says when the host took the cores).
 */
export async function runMixed(root: string, opts: BenchOptions, say: (m: string) => void): Promise<string> {
  root = process.env.BENCH_SERVER_ROOT ?? root;
  const rounds = opts.given.has('rounds') ? opts.rounds : 1;
  const catalogue = await prepare(root, opts, say);
  const logDir = path.join(catalogue.dataDir, 'logs');
  const statsDir = path.join(catalogue.dataDir, 'stats');
  fs.mkdirSync(logDir, { recursive: true });
  fs.mkdirSync(statsDir, { recursive: true });
  const lines: string[] = [];
  const notes: string[] = [];
  const name = `Shelfmark ${opts.pg ? 'PostgreSQL' : 'SQLite'}, --workers ${opts.workers}`;
  try {
    const fastify = await startFastify(catalogue, await freePort(), logDir);
    try {
      await wrkReads(fastify.origin, catalogue, opts, opts.warmupSeconds, WARMUP_SEED);
      const server = await startChildServer({
        root,
        dataDir: catalogue.dataDir,
        logDir,
        databaseUrl: catalogue.databaseUrl,
        cacheMib: opts.cacheMib,
        workers: opts.workers,
        env: { SHELFMARK_BENCH_STATS_DIR: statsDir },
        nodeArgs: profileNodeArgs(root, opts.profile),
      });
      try {
        const warm = await warmUp(server, catalogue, opts, statsDir, say);
        // The staff credential verified once (scrypt) before the mix: the server remembers it then,
        // as it would for a desk client that has been working all day.
        await fetch(`${server.origin}/ausleihen`, { headers: { authorization: AUTH } }).then((r) =>
          r.arrayBuffer(),
        );
        // The writes warmed up too, beside one more read round: the first writes of a process
        // open its pool's connections (new backends, statements prepared afresh) and run its
        // write paths cold; measured, that first window's writes had a p99 of ~2 s.
        if (opts.writeRate > 0) {
          say(`  warming up the writes (${opts.warmupSeconds} s at ${opts.writeRate}/s beside reads) …`);
          const writer = writeMix(server.origin, catalogue, opts.writeRate, WRITE_WARMUP_SEED);
          await wrkReads(server.origin, catalogue, opts, opts.warmupSeconds, WARMUP_SEED + MAX_WARMUP_ROUNDS);
          await writer.stop();
        }
        const first = await cacheCounts(server, statsDir);
        let after = first;
        const ratios: number[] = [];
        const allWrites: WriteStats = { latencies: new Map(), refused: new Map(), failed: 0 };
        for (let round = 0; round < rounds; round++) {
          const seed = WINDOW_SEED + round;
          const label = rounds > 1 ? ` (round ${round + 1})` : '';
          say(`  measuring ${opts.seconds} s${label}: the Fastify peer's reads …`);
          let steal = cpuTimes();
          let before = treeCpuSeconds(fastify.pid)!;
          const peer = await wrkReads(fastify.origin, catalogue, opts, opts.seconds, seed);
          const fastifyCpu = ((treeCpuSeconds(fastify.pid)! - before) * 1e6) / peer.requests;
          lines.push(
            `| Fastify peer${label} | – | ${(peer.requests / peer.seconds).toFixed(0)} | ${fastifyCpu.toFixed(1)} | 1.00 | – | ${peer.p50Ms.toFixed(1)} | ${peer.p99Ms.toFixed(1)} | – | – | – | ${stealSince(steal).toFixed(1)} |`,
          );
          say(`  measuring ${opts.seconds} s${label}: Shelfmark's reads beside ${opts.writeRate} writes/s …`);
          const counts = await cacheCounts(server, statsDir);
          steal = cpuTimes();
          before = server.cpuSeconds()!;
          // Another sequence each round: a repeated one would borrow what it borrowed before (409).
          const writer = writeMix(server.origin, catalogue, opts.writeRate, WRITE_SEED + round);
          const reads = await wrkReads(server.origin, catalogue, opts, opts.seconds, seed);
          const writes = await writer.stop();
          const cpu = ((server.cpuSeconds()! - before) * 1e6) / reads.requests;
          const stolen = stealSince(steal);
          after = await cacheCounts(server, statsDir);
          const hits = after.hits - counts.hits;
          const misses = after.misses - counts.misses;
          const all = [...writes.latencies.values()].flat();
          ratios.push(cpu / fastifyCpu);
          addWrites(allWrites, writes);
          lines.push(
            `| ${name}${label} | ${opts.writeRate} | ${(reads.requests / reads.seconds).toFixed(0)} | ${cpu.toFixed(1)} | ${(cpu / fastifyCpu).toFixed(2)} | ${hitRate(hits, misses)} | ${reads.p50Ms.toFixed(1)} | ${reads.p99Ms.toFixed(1)} | ${(all.length / reads.seconds).toFixed(1)} | ${pct(all, 50).toFixed(1)} | ${pct(all, 99).toFixed(1)} | ${stolen.toFixed(1)} |`,
          );
        }
        if (rounds > 1) {
          const hits = after.hits - first.hits;
          const misses = after.misses - first.misses;
          lines.push(
            `| **${name}, median of ${rounds}** | ${opts.writeRate} | | | **${pct(ratios, 50).toFixed(2)}** | ${hitRate(hits, misses)} | | | | | | |`,
          );
        }
        const perKind = [...allWrites.latencies]
          .map(([k, xs]) => `${k} ${xs.length} (p50 ${pct(xs, 50).toFixed(1)} ms)`)
          .join(', ');
        const refused = [...allWrites.refused].map(([k, n]) => `${k}: ${n}`).join(', ');
        notes.push(`Writes: ${perKind}; refused: ${refused || 'none'}; failed: ${allWrites.failed}.`);
        notes.push(
          '',
          `Warm-up: ${warm.rounds} × ${opts.warmupSeconds} s of reads; the last one's lookups ${(100 * warm.coldShare).toFixed(1)} % cold` +
            (opts.writeRate > 0 ? `; then ${opts.warmupSeconds} s of reads beside the write mix.` : '.'),
          `Misses by why: ${missesByWhy(first, after)}.`,
        );
      } finally {
        await server.stop();
      }
    } finally {
      fastify.stop();
    }
  } finally {
    if (!opts.keep) fs.rmSync(catalogue.dataDir, { recursive: true, force: true });
  }
  return [
    `# Reads beside writes — ${new Date().toISOString()}`,
    '',
    `Random person JSON reads (wrk -t${opts.threads} -c${opts.connections}, ${opts.seconds} s after ${opts.warmupSeconds} s of reads) on 10,000 persons / 50,000 works.`,
    'CPU per read: the server processes’ CPU over the window divided by the reads (the writes’ CPU included).',
    rounds > 1
      ? `${rounds} rounds; each compares Shelfmark's window with the peer's window just before it (the ratio's median is the figure).`
      : 'One round (--rounds N alternates N windows of each and reports the median ratio).',
    '',
    '| server | writes/s asked | reads/s | CPU µs/read | × Fastify | cache hits | read p50 ms | read p99 ms | writes/s done | write p50 ms | write p99 ms | steal % |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...lines,
    '',
    ...notes,
  ].join('\n');
}

/**
 * `--pg-writers N`: N staff clients, each PATCHing its own works in a loop, for `--seconds`.
 * BENCH_SERVER_ROOT names another checkout (e.g. one at main) to load and serve instead of this
 * one: the same command measures before and after (each on its own scratch database).
 */
export async function runPgWriters(
  root: string,
  opts: BenchOptions,
  say: (m: string) => void,
): Promise<string> {
  if (!opts.pg) throw new Error('--pg-writers needs --pg postgres://…');
  root = process.env.BENCH_SERVER_ROOT ?? root;
  const catalogue = await prepare(root, opts, say);
  const logDir = path.join(catalogue.dataDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const writers = opts.pgWriters ?? 16;
  const server = await startChildServer({
    root,
    dataDir: catalogue.dataDir,
    logDir,
    databaseUrl: catalogue.databaseUrl,
    workers: opts.workers,
    nodeArgs: profileNodeArgs(root, opts.profile),
  });
  const done: number[] = new Array(writers).fill(0);
  // Where a write's CPU goes: the server's processes, and the whole machine (PostgreSQL's
  // backends are most of the rest) and this process's clients.
  let serverCpu: number | undefined;
  let machineBusy: number | undefined;
  let clientCpu: number | undefined;
  const statuses = new Map<number, number>();
  try {
    const http = leanClient(server.origin, writers);
    // Distinct works per writer: writer i takes works i, i + N, i + 2N, … (on from the warm-up's).
    const next: number[] = new Array(writers).fill(0);
    const loop = async (i: number, stopAt: number, count: boolean) => {
      while (Date.now() < stopAt) {
        const n = next[i]!++;
        const work = catalogue.works[(i + writers * n) % catalogue.works.length]!;
        const response = await http.request(
          'PATCH',
          `/werke/${work.slug}`,
          {
            authorization: AUTH,
            accept: 'application/json',
            'content-type': 'application/merge-patch+json',
          },
          JSON.stringify({ jahr: 1900 + (n % 100) }),
        );
        if (!count) continue;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 200) done[i]! += 1;
      }
    };
    const all = (seconds: number, count: boolean) => {
      const stopAt = Date.now() + seconds * 1000;
      return Promise.all(Array.from({ length: writers }, (_, i) => loop(i, stopAt, count)));
    };
    // Warm first (--warmup): compiled code, each connection's planned statements.
    await all(opts.warmupSeconds, false);
    const before = server.cpuSeconds()!;
    const machine = cpuTimes();
    const client = process.cpuUsage();
    await all(opts.seconds, true);
    http.close();
    serverCpu = server.cpuSeconds()! - before;
    machineBusy = cpuTimes().busy - machine.busy;
    const used = process.cpuUsage(client);
    clientCpu = (used.user + used.system) / 1e6;
  } finally {
    await server.stop();
    fs.rmSync(catalogue.dataDir, { recursive: true, force: true });
  }
  const total = done.reduce((a, b) => a + b, 0);
  const perWrite = (seconds: number | undefined) =>
    ((1000 * (seconds ?? NaN)) / Math.max(1, total)).toFixed(1);
  const direct = await databaseWriters(catalogue, writers, opts.seconds);
  return [
    `# PostgreSQL write throughput — ${new Date().toISOString()}`,
    '',
    `${writers} concurrent staff clients PATCHing distinct works for ${opts.seconds} s (after ${opts.warmupSeconds} s warm-up), --workers ${opts.workers}:`,
    `**${(total / opts.seconds).toFixed(1)} writes/s** (${total} acknowledged); answers: ${[...statuses].map(([s, n]) => `${s} × ${n}`).join(', ')}.`,
    `CPU per acknowledged write: the server's processes ${perWrite(serverCpu)} ms, ` +
      `the clients (this process) ${perWrite(clientCpu)} ms, the whole machine ${perWrite(machineBusy)} ms` +
      ` (PostgreSQL's backends are most of the rest).`,
    '',
    `The database alone (no HTTP, no Node CPU): ${writers} connections, each transaction updating one of`,
    `its own works and holding 5 ms (a write's round trips) before commit: **${direct.toFixed(1)} transactions/s**`,
    `(one shared row held until commit allows at most 200/s).`,
  ].join('\n');
}

/**
 * What the triggers alone allow: N connections, each committing transactions that update one of
 * its own works and then wait 5 ms — a write's round trips while it holds its row locks. A row
 * every writer updates (ADR 0048's counter) serialises them to at most 200 per second.
 */
async function databaseWriters(catalogue: Catalogue, writers: number, seconds: number): Promise<number> {
  const stopAt = Date.now() + seconds * 1000;
  let committed = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, i) => {
      const client = new pg.Client({ connectionString: catalogue.databaseUrl });
      await client.connect();
      try {
        for (let n = 0; Date.now() < stopAt; n++) {
          const work = catalogue.works[(i + writers * n) % catalogue.works.length]!;
          await client.query('begin');
          await client.query('update works set jahr = $1 where id = $2', [1900 + (n % 100), work.id]);
          await client.query('select pg_sleep(0.005)');
          await client.query('commit');
          committed += 1;
        }
      } finally {
        await client.end();
      }
    }),
  );
  return committed / seconds;
}
