// Options of `npm run bench`: flags win over BENCH_* environment variables, which win over the
// defaults. `--quick` only shortens the runs; the catalogue stays the same size.

export type LoadTool = 'wrk' | 'autocannon';

export interface BenchOptions {
  /** Measured seconds per case. */
  readonly seconds: number;
  /** Unmeasured seconds per case before it (JIT, SQLite page cache, keep-alive connections). */
  readonly warmupSeconds: number;
  readonly threads: number;
  readonly connections: number;
  /** Synthetic works in the catalogue (the demo authors come on top). */
  readonly works: number;
  /** How often the access-log variants are measured, alternately; the median is reported. */
  readonly rounds: number;
  /** How many rel=next links the deep-page case follows before it measures. */
  readonly depth: number;
  /** Forced tool, or undefined: wrk when installed, else autocannon. */
  readonly tool: LoadTool | undefined;
  /** The server's representation cache in MiB (`0`: off); undefined: the server's default. */
  readonly cacheMib: number | undefined;
  /** A PostgreSQL URL: the cases run against it too (it gets the synthetic catalogue). */
  readonly pg: string | undefined;
  /** Only the cases whose name matches. */
  readonly only: RegExp | undefined;
  /** `--mixed`: random person JSON reads at full speed beside a steady write mix (bench/mixed.ts). */
  readonly mixed: boolean;
  /** `--mixed`: writes per second (borrow, return, renew, hold, edit a work). */
  readonly writeRate: number;
  /** `--mixed`: the server's worker processes (0: one process). */
  readonly workers: number;
  /** `--pg-writers N`: N concurrent staff clients PATCHing distinct works on PostgreSQL (`--pg`). */
  readonly pgWriters: number | undefined;
  /** Keep the temporary data and log directory (for looking at access.log). */
  readonly keep: boolean;
  /** Run the server under `node --cpu-prof` (profiles in tmp/bench-profiles) and summarise. */
  readonly profile: boolean;
  /** Run the shared peer harness (Shelfmark beside node:http, Fastify, Express, Apache) instead. */
  readonly peers: boolean;
  /** Measure search and paging latency per query class instead (bench/search-http.ts). */
  readonly search: boolean;
  /** `--search`: timed requests per case. */
  readonly requests: number;
  /** `--search`: an existing SQLite catalogue to serve instead of the cached one (used in place). */
  readonly sqlite: string | undefined;
  /** The numeric options that were given (flag, BENCH_* variable or --quick), not defaulted. */
  readonly given: ReadonlySet<string>;
}

export const USAGE = `usage: npm run bench -- [--quick] [--seconds N] [--warmup N] [--threads N] [--connections N]
                        [--works N] [--rounds N] [--depth N] [--tool wrk|autocannon] [--cache-mib N]
                        [--pg postgres://…] [--only REGEX] [--keep] [--profile]
       npm run bench -- --search [--works N | --sqlite FILE] [--pg postgres://…] [--requests N]
                        [--warmup N] [--cache-mib N]
                        (search and paging latency per query class, one client, cache off)
       npm run bench -- --peers [--quick] [--rounds N] [--seconds N] [--warmup N] [--threads N]
                        [--connections N] [--pg postgres://…] [--cache-mib N]
                        (Shelfmark beside the peer servers; see docs/decisions/0005-benchmarks.md)
       npm run bench -- --mixed [--write-rate N] [--workers 0|2] [--pg postgres://…] [--seconds N]
                        [--warmup N] [--connections N] [--cache-mib N] [--rounds N]
                        (person JSON reads beside a steady write mix, and the Fastify peer; ADR 0088;
                        --rounds N: N windows of each, alternating, and the median ratio)
       npm run bench -- --pg-writers N --pg postgres://… [--seconds N] [--warmup N] [--workers 0|2]
                        (write throughput of N concurrent writers of distinct works)
environment: BENCH_SECONDS, BENCH_WARMUP, BENCH_THREADS, BENCH_CONNECTIONS, BENCH_WORKS,
             BENCH_ROUNDS, BENCH_DEPTH, BENCH_TOOL, BENCH_PG, BENCH_ONLY, BENCH_CACHE_MIB,
             BENCH_REQUESTS, BENCH_SQLITE`;

const NUMBERS = [
  'seconds',
  'warmup',
  'threads',
  'connections',
  'works',
  'rounds',
  'depth',
  'cache-mib',
  'requests',
  'write-rate',
  'workers',
  'pg-writers',
] as const;
const TEXTS = ['tool', 'pg', 'only', 'sqlite'] as const;
const SWITCHES = ['quick', 'keep', 'profile', 'peers', 'search', 'mixed', 'help'] as const;

/** Parses argv (`--name value`, `--name=value`, `--switch`) and env; throws with a readable message. */
export function parseBenchOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BenchOptions | 'help' {
  const given: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`unexpected argument ${arg}\n${USAGE}`);
    const name = m[1]!;
    if ((SWITCHES as readonly string[]).includes(name)) given[name] = true;
    else if ([...NUMBERS, ...TEXTS].includes(name as never)) {
      const value = m[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      given[name] = value;
    } else throw new Error(`unknown option --${name}\n${USAGE}`);
  }
  if (given.help) return 'help';
  const quick = given.quick === true;
  const explicit = new Set<string>(quick ? ['seconds', 'warmup', 'rounds'] : []);
  const raw = (name: string): string | undefined => {
    const v = given[name];
    return typeof v === 'string' ? v : env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  };
  const num = (name: (typeof NUMBERS)[number], fallback: number, min: number): number => {
    const v = raw(name);
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, not ${v}`);
    explicit.add(name);
    return n;
  };
  const tool = raw('tool');
  if (tool !== undefined && tool !== 'wrk' && tool !== 'autocannon')
    throw new Error(`--tool must be wrk or autocannon, not ${tool}`);
  const only = raw('only');
  return {
    seconds: num('seconds', quick ? 2 : 10, 1),
    warmupSeconds: num('warmup', quick ? 1 : 2, 0),
    threads: Math.round(num('threads', 2, 1)),
    connections: Math.round(num('connections', 32, 1)),
    works: Math.round(num('works', 100_000, 1)),
    rounds: Math.round(num('rounds', quick ? 1 : 5, 1)),
    depth: Math.round(num('depth', 50, 1)),
    tool,
    cacheMib: raw('cache-mib') === undefined ? undefined : Math.round(num('cache-mib', 0, 0)),
    pg: raw('pg') || undefined,
    only: only ? new RegExp(only, 'i') : undefined,
    keep: given.keep === true,
    profile: given.profile === true,
    peers: given.peers === true,
    search: given.search === true,
    mixed: given.mixed === true,
    writeRate: num('write-rate', 20, 0),
    workers: Math.round(num('workers', 0, 0)),
    pgWriters: raw('pg-writers') === undefined ? undefined : Math.round(num('pg-writers', 16, 1)),
    requests: Math.round(num('requests', quick ? 20 : 200, 1)),
    sqlite: raw('sqlite') || undefined,
    given: explicit,
  };
}
