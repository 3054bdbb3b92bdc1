// One measurement: warm up, then load one URL for a fixed time while reading the server's CPU
// time before and after. CPU per request (server process only) is steadier than req/s on a
// shared machine: it does not depend on how much CPU the load generator or neighbours got.
import type { BenchCase } from './cases.ts';
import { runLoad, type LoadResult, type LoadSettings } from './load.ts';
import type { LoadTool } from './options.ts';
import type { ChildServer } from './server.ts';

export interface Measurement {
  readonly name: string;
  readonly path: string;
  readonly load: LoadResult;
  /** Server CPU (user + system) per request in microseconds; undefined without /proc. */
  readonly cpuUsPerRequest: number | undefined;
}

export interface MeasureSettings extends LoadSettings {
  readonly tool: LoadTool;
  readonly warmupSeconds: number;
}

export async function measure(server: ChildServer, c: BenchCase, s: MeasureSettings): Promise<Measurement> {
  const url = server.origin + c.path;
  const settings = c.headers ? { ...s, headers: c.headers } : s;
  if (s.warmupSeconds > 0) await runLoad(s.tool, url, { ...settings, seconds: s.warmupSeconds });
  const before = server.cpuSeconds();
  const load = await runLoad(s.tool, url, settings);
  const after = server.cpuSeconds();
  const cpuUsPerRequest =
    before === undefined || after === undefined || load.requests === 0
      ? undefined
      : ((after - before) * 1e6) / load.requests;
  return { name: c.name, path: c.path, load, cpuUsPerRequest };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of each figure over repeated measurements of one case (figures taken apart). */
export function medianOf(runs: readonly Measurement[]): Measurement {
  const first = runs[0];
  if (!first) throw new Error('medianOf: no runs');
  const of = (f: (l: LoadResult) => number) => median(runs.map((r) => f(r.load)));
  const cpu = runs.map((r) => r.cpuUsPerRequest).filter((v): v is number => v !== undefined);
  return {
    name: first.name,
    path: first.path,
    load: {
      requests: of((l) => l.requests),
      seconds: of((l) => l.seconds),
      requestsPerSecond: of((l) => l.requestsPerSecond),
      p50Ms: of((l) => l.p50Ms),
      p99Ms: of((l) => l.p99Ms),
      non2xx: runs.reduce((n, r) => n + r.load.non2xx, 0),
      errors: runs.reduce((n, r) => n + r.load.errors, 0),
    },
    cpuUsPerRequest: cpu.length === runs.length ? median(cpu) : undefined,
  };
}
