// Load generators: wrk (preferred: C, its own threads, steady) or autocannon (in this process)
// when wrk is not installed. Both report the same LoadResult.
import { execFile, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { LoadTool } from './options.ts';

export interface LoadSettings {
  readonly seconds: number;
  readonly threads: number;
  readonly connections: number;
  /** Sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses other than 2xx/3xx. */
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
}

export function wrkInstalled(): boolean {
  return !spawnSync('wrk', ['--version']).error;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

function durationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk: unreadable duration ${text}`);
  // Divide for µs rather than multiply by 0.001: 815.00us is exactly 0.815 ms.
  return m[2] === 'us' ? Number(m[1]) / 1000 : Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** Reads the output of `wrk --latency`. */
export function parseWrkOutput(text: string): LoadResult {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(text);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const p50 = /^\s+50%\s+(\S+)/m.exec(text);
  const p99 = /^\s+99%\s+(\S+)/m.exec(text);
  if (!total || !rps || !p50 || !p99) throw new Error(`wrk: unexpected output:\n${text}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    requests: Number(total[1]),
    seconds: durationMs(total[2]! + total[3]!) / 1000,
    requestsPerSecond: Number(rps[1]),
    p50Ms: durationMs(p50[1]!),
    p99Ms: durationMs(p99[1]!),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

function runWrk(url: string, s: LoadSettings): Promise<LoadResult> {
  const args = [
    `-t${Math.min(s.threads, s.connections)}`,
    `-c${s.connections}`,
    `-d${s.seconds}s`,
    ...Object.entries(s.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    '--latency',
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`wrk ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      try {
        resolve(parseWrkOutput(stdout));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
// autocannon ships no type declarations.
type Autocannon = (o: object) => Promise<CannonResult>;
let autocannon: Autocannon | undefined;

async function runAutocannon(url: string, s: LoadSettings): Promise<LoadResult> {
  autocannon ??= createRequire(import.meta.url)('autocannon') as Autocannon;
  const r = await autocannon({
    url,
    connections: s.connections,
    duration: s.seconds,
    headers: s.headers ?? {},
  });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    requestsPerSecond: r.requests.total / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

export function runLoad(tool: LoadTool, url: string, settings: LoadSettings): Promise<LoadResult> {
  return tool === 'wrk' ? runWrk(url, settings) : runAutocannon(url, settings);
}
