// `npm run bench -- --peers`: Shelfmark beside the peer servers (node:http, Fastify, Express,
// Apache + mod_php, a constant-body ceiling) on the same 10,000 persons / 50,000 works, in one
// interleaved run of the shared harness (`bench/` in the shared directory beside the
// repository, or SHELFMARK_SHARED_DIR). The harness is read-only there and writes beside
// itself (its database, node_modules, results), so it runs from a copy in tmp/peer-bench/.
// See docs/decisions/0005-benchmarks.md.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { catalogueKey } from './catalogue.ts';

export interface PeerOptions {
  /** Harness knobs given as flags (they win over the harness's own environment variables). */
  readonly rounds?: number | undefined;
  readonly seconds?: number | undefined;
  readonly warmupSeconds?: number | undefined;
  readonly threads?: number | undefined;
  readonly connections?: number | undefined;
  /** A scratch PostgreSQL database: adds the shelfmark-pg row (loaded once; must start empty). */
  readonly pg?: string | undefined;
  /** The product rows' representation cache (MiB; 0 = off); undefined: its default. */
  readonly cacheMib?: number | undefined;
}

/** The peers and the product row, in the harness's table order. */
export const PEER_SERVERS = ['node-raw', 'fastify', 'express', 'apache-php', 'node-const', 'shelfmark'];

/** The shared harness: SHELFMARK_SHARED_DIR/bench, else ../shared/bench beside the repository. */
export function sharedBenchDir(root: string, env: NodeJS.ProcessEnv): string {
  return path.join(env.SHELFMARK_SHARED_DIR ?? path.resolve(root, '../shared'), 'bench');
}

/** The harness's environment for these options: flags become its knobs, the rest passes through. */
export function harnessEnv(
  root: string,
  work: string,
  opts: PeerOptions,
  env: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, SHELFMARK_ROOT: root };
  // The product's database for the shelfmark row, keyed like the bench catalogue: a schema or
  // sort-key change builds a fresh one instead of serving a stale file.
  const key = catalogueKey(root, 50_000);
  out.SHELFMARK_DB = path.join(work, `shelfmark-${key}`, 'shelfmark.db');
  if (opts.rounds !== undefined) out.ROUNDS = String(opts.rounds);
  if (opts.seconds !== undefined) out.DURATION = `${opts.seconds}s`;
  if (opts.warmupSeconds !== undefined) out.WARMUP = `${opts.warmupSeconds}s`;
  if (opts.threads !== undefined) out.THREADS = String(opts.threads);
  if (opts.connections !== undefined) out.CONNS = String(opts.connections);
  if (opts.pg) out.SHELFMARK_PG_URL = opts.pg;
  // The harness's product script drops every SHELFMARK_* variable but its own and passes no
  // cache flag; node flags it does pass: a module preloaded before the configuration is read.
  if (opts.cacheMib !== undefined)
    out.SHELFMARK_BENCH_NODE_ARGS = `--import=data:text/javascript,process.env.SHELFMARK_CACHE_MIB=${JSON.stringify(String(opts.cacheMib))}`;
  out.SERVERS = env.SERVERS ?? [...PEER_SERVERS, ...(opts.pg ? ['shelfmark-pg'] : [])].join(' ');
  return out;
}

/** Copies the harness (not its results or installed modules) into `dest`, writable. */
export function copyHarness(from: string, dest: string): void {
  const skip = new Set(['node_modules', 'results', 'bench.db', 'bench.slugs.txt', 'shelfmark-pg.slugs.txt']);
  fs.mkdirSync(dest, { recursive: true });
  for (const name of fs.readdirSync(from)) {
    if (skip.has(name)) continue;
    const target = path.join(dest, name);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(path.join(from, name), target, { recursive: true });
  }
  // The shared copy is read-only; the harness writes beside its files.
  spawnSync('chmod', ['-R', 'u+w', dest]);
}

/** Per server and format: median server CPU µs/request and req/s, from the harness's runs.tsv. */
export function peerMedians(runsTsv: string): Map<string, { cpu: number; rps: number; db: number }> {
  const [head, ...lines] = runsTsv.trim().split('\n');
  const cols = (head ?? '').split('\t');
  const groups = new Map<string, Record<string, string>[]>();
  for (const line of lines.filter(Boolean)) {
    const row = Object.fromEntries(line.split('\t').map((v, i) => [cols[i], v]));
    const id = `${row.server}/${row.format}`;
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const result = new Map<string, { cpu: number; rps: number; db: number }>();
  for (const [id, rows] of groups)
    result.set(id, {
      cpu: median(rows.map((r) => Number(r.srv_cpu_us_per_req))),
      rps: median(rows.map((r) => Number(r.rps))),
      db: median(rows.map((r) => Number(r.db_cpu_us_per_req ?? 0))),
    });
  return result;
}

/** The product rows against Fastify: CPU per request (the steadier figure) and req/s. */
export function fastifyRatios(medians: ReturnType<typeof peerMedians>): string[] {
  const lines = [
    '| server | format | CPU µs/req | + PostgreSQL µs/req | × Fastify CPU | × Fastify req/s |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const [id, m] of medians) {
    const [server, format] = id.split('/');
    const ref = medians.get(`fastify/${format}`);
    if (!ref) continue;
    const db = m.db > 0 ? m.db.toFixed(0) : '-';
    const total = m.cpu + m.db;
    lines.push(
      `| ${server} | ${format} | ${m.cpu.toFixed(0)} | ${db} | ${(total / ref.cpu).toFixed(2)} | ${(m.rps / ref.rps).toFixed(2)} |`,
    );
  }
  return lines;
}

/** Runs the harness; resolves with the report text (its table plus the ratios to Fastify). */
export async function runPeers(root: string, opts: PeerOptions, say: (m: string) => void): Promise<string> {
  const shared = sharedBenchDir(root, process.env);
  if (!fs.existsSync(path.join(shared, 'run.sh')))
    throw new Error(`no peer harness at ${shared} (set SHELFMARK_SHARED_DIR to the shared directory)`);
  const work = path.join(root, 'tmp', 'peer-bench');
  const harness = path.join(work, 'harness');
  copyHarness(shared, harness);
  say(`peer harness copied to ${path.relative(root, harness)}`);
  if (!fs.existsSync(path.join(harness, 'node_modules'))) {
    say('installing the peers (npm ci in the harness copy) …');
    const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: harness, stdio: 'inherit' });
    if (install.status !== 0) throw new Error('npm ci in the harness copy failed');
  }
  const env = harnessEnv(root, work, opts, process.env);
  fs.mkdirSync(path.dirname(env.SHELFMARK_DB!), { recursive: true });
  say(`servers: ${env.SERVERS}`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(path.join(harness, 'run.sh'), [], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  const latest = path.join(harness, 'results', 'latest');
  if (!fs.existsSync(path.join(latest, 'runs.tsv'))) throw new Error(`the harness failed (exit ${code})`);
  const table = fs.readFileSync(path.join(latest, 'table.txt'), 'utf8');
  const ratios = fastifyRatios(peerMedians(fs.readFileSync(path.join(latest, 'runs.tsv'), 'utf8')));
  const report = [
    `# Shelfmark beside its peers — ${new Date().toISOString()}`,
    '',
    '```',
    table.trim(),
    '```',
    '',
    '## Ratio to Fastify (medians over rounds; CPU includes PostgreSQL where a row has it)',
    '',
    ...ratios,
    '',
    code === 0 ? '' : `The harness exited with ${code}: some response checks failed (see above).`,
  ].join('\n');
  return report;
}
