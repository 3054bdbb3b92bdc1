// `npm run bench -- --search`: the latency of a works search over HTTP per query class (rare
// word, common words, one letter, prefix, several words, other spelling, no hits) and of deep
// pages (page 2 against page 1,000, searched and unsearched), on SQLite and, with --pg, on
// PostgreSQL. One client sends its requests one after another (the classes take turns, so a
// busy neighbour slows them alike), with the representation cache off unless --cache-mib says
// otherwise: every request runs its queries. Reports p50/p95 wall time and server CPU per
// request. docs/decisions/0065-postgres-term-index.md has figures at 1,000,000 works.
import { processCpuSeconds, type ChildServer } from './server.ts';
import { jsonPathOf } from './cases.ts';
import { leanClient } from './http-client.ts';

export interface SearchCase {
  readonly name: string;
  readonly q?: string;
  /** `sortierung=relevanz` (ADR 0080). */
  readonly order?: 'relevanz';
  /** Facet filters as query text, e.g. `dekade=1900` (ADR 0094). */
  readonly facets?: string;
  /** Page number the case measures (found by following `naechste` from page 1). */
  readonly page: number;
}

export const SEARCH_CASES: readonly SearchCase[] = [
  { name: 'rare word', q: 'faust', page: 1 },
  { name: 'common word', q: 'der', page: 1 },
  // Its matches sort behind ≈ 400,000 "Der dunkle/ferne …" titles (ADR 0045).
  { name: 'common word, matches far in', q: 'kleine', page: 1 },
  // Behind ≈ 570,000 "Der …" titles.
  { name: 'common word, matches farther in', q: 'die', page: 1 },
  { name: 'one letter', q: 'd', page: 1 },
  { name: 'prefix', q: 'kl', page: 1 },
  { name: 'several words', q: 'der kleine garten', page: 1 },
  { name: 'other spelling', q: 'müller', page: 1 },
  { name: 'no hits', q: 'xyzzy', page: 1 },
  { name: 'common word', q: 'der', page: 2 },
  { name: 'common word', q: 'der', page: 1000 },
  { name: 'several words', q: 'der kleine garten', page: 2 },
  // Stems (ADR 0079): `kleinen` meets the stem of "kleine", `gartens` that of "Garten".
  { name: 'stemmed word', q: 'kleinen', page: 1 },
  { name: 'stemmed word', q: 'gartens', page: 1 },
  // No hits as typed: the page suggests "garten" (ADR 0079).
  { name: 'typo, suggestion', q: 'gartne', page: 1 },
  // Relevance (ADR 0080): an exact title, and a surname held by ≈ 15,000 persons.
  { name: 'relevance order', q: 'der kleine garten 1', order: 'relevanz', page: 1 },
  { name: 'relevance order', q: 'müller', order: 'relevanz', page: 1 },
  { name: 'relevance order', q: 'müller', order: 'relevanz', page: 2 },
  // Facets (ADR 0094): one filter beside a common word, a rarer word and the unsearched list
  // (every synthetic decade holds 1 in 22 works; a synthetic author has about 4 works).
  { name: 'one facet filter', q: 'der', facets: 'dekade=1900', page: 1 },
  { name: 'one facet filter', q: 'garten', facets: 'verfuegbar=ja', page: 1 },
  { name: 'one facet filter', facets: 'dekade=1900', page: 1 },
  { name: 'one facet filter', facets: 'dekade=1900', page: 2 },
  { name: 'one facet filter', q: 'der', facets: 'autor=goethe', page: 1 },
  { name: 'one facet filter', facets: 'medientyp=buch', page: 1 },
  { name: 'list', page: 2 },
  { name: 'list', page: 1000 },
];

export interface SearchResult {
  readonly case: SearchCase;
  readonly path: string;
  readonly rows: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly cpuUsPerRequest: number | undefined;
  /** CPU of the database's own processes (PostgreSQL backends) per request, when given. */
  readonly dbCpuUsPerRequest: number | undefined;
}

/** CPU seconds used so far by the database's processes (PostgreSQL's backends serving the server). */
export type DatabaseCpu = () => number | undefined;

/**
 * The CPU of the given processes together, never decreasing: a process that has ended (the
 * server's pool closes idle connections) keeps its last reading; `more` adds processes found later.
 */
export function processesCpu(pids: readonly number[]): DatabaseCpu & { more(pids: readonly number[]): void } {
  const last = new Map<number, number>();
  const read = () => {
    for (const pid of last.keys()) {
      const seconds = processCpuSeconds(pid);
      if (seconds !== undefined) last.set(pid, seconds);
    }
    return [...last.values()].reduce((sum, n) => sum + n, 0);
  };
  const more = (found: readonly number[]) => {
    for (const pid of found) if (!last.has(pid)) last.set(pid, processCpuSeconds(pid) ?? 0);
  };
  more(pids);
  return Object.assign(read, { more });
}

function firstPath(c: SearchCase): string {
  const params = [
    ...(c.q === undefined ? [] : [`q=${encodeURIComponent(c.q)}`]),
    ...(c.q !== undefined && c.order !== undefined ? [`sortierung=${c.order}`] : []),
    ...(c.facets === undefined ? [] : [c.facets]),
  ];
  return `/werke.json${params.length > 0 ? `?${params.join('&')}` : ''}`;
}

async function getJson(origin: string, path: string): Promise<{ naechste?: string; werk?: unknown[] }> {
  const response = await fetch(origin + path);
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return (await response.json()) as { naechste?: string; werk?: unknown[] };
}

/** The path of the case's page (20 rows, the default size), following `naechste` links from page 1. */
async function pathOf(origin: string, c: SearchCase): Promise<string> {
  let path = firstPath(c);
  for (let page = 1; page < c.page; page++) {
    const body = await getJson(origin, path);
    if (!body.naechste) throw new Error(`${c.name}: the result ends on page ${page}, before ${c.page}`);
    path = jsonPathOf(body.naechste);
  }
  return path;
}

const quantile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/** Measures every case: `requests` timed requests each, after `warmup` untimed ones, in turns. */
export async function measureSearch(
  server: ChildServer,
  requests: number,
  warmup: number,
  say: (m: string) => void,
  /** The database's processes (asked each round: connections come and go). */
  databaseProcesses?: () => Promise<readonly number[]>,
): Promise<SearchResult[]> {
  const paths: string[] = [];
  for (const c of SEARCH_CASES) {
    say(`  finding ${c.name}${c.q === undefined ? '' : ` "${c.q}"`}, page ${c.page} …`);
    paths.push(await pathOf(server.origin, c));
  }
  const rows = await Promise.all(paths.map(async (p) => (await getJson(server.origin, p)).werk?.length ?? 0));
  const times = paths.map((): number[] => []);
  const cpu = paths.map(() => 0);
  const dbCpu = paths.map(() => 0);
  // Asked after the warm-up requests have opened the server's connections.
  let database: ReturnType<typeof processesCpu> | undefined;
  // The timed requests go through node:http on one kept-alive socket, not fetch(): the client
  // shares the machine's cores with the server and the database, and fetch() spends several
  // times node:http's CPU per request, inside the time measured (http-client.ts).
  const client = leanClient(server.origin, 1);
  for (let round = 0; round < warmup + requests; round++) {
    if (round >= warmup && databaseProcesses) {
      const pids = await databaseProcesses();
      if (database) database.more(pids);
      else database = processesCpu(pids);
    }
    for (let i = 0; i < paths.length; i++) {
      const dbBefore = database?.();
      const before = server.cpuSeconds();
      const started = performance.now();
      const response = await client.request('GET', paths[i]!, {});
      const ms = performance.now() - started;
      const after = server.cpuSeconds();
      const dbAfter = database?.();
      if (response.status !== 200) throw new Error(`GET ${paths[i]} answered ${response.status}`);
      if (round < warmup) continue;
      times[i]!.push(ms);
      if (before !== undefined && after !== undefined) cpu[i]! += after - before;
      if (dbBefore !== undefined && dbAfter !== undefined) dbCpu[i]! += dbAfter - dbBefore;
    }
    if ((round + 1) % 50 === 0) say(`  round ${round + 1}/${warmup + requests}`);
  }
  client.close();
  return SEARCH_CASES.map((c, i) => {
    const sorted = [...times[i]!].sort((a, b) => a - b);
    return {
      case: c,
      path: paths[i]!,
      rows: rows[i]!,
      p50Ms: quantile(sorted, 0.5),
      p95Ms: quantile(sorted, 0.95),
      cpuUsPerRequest: server.cpuSeconds() === undefined ? undefined : (cpu[i]! * 1e6) / requests,
      dbCpuUsPerRequest: database === undefined ? undefined : (dbCpu[i]! * 1e6) / requests,
    };
  });
}

const us = (n: number | undefined) => (n === undefined ? 'n/a' : n.toFixed(0));

/** A Markdown table of the results. */
export function searchTable(results: readonly SearchResult[]): string {
  const lines = [
    '| class | q | page | rows | p50 ms | p95 ms | server CPU µs/req | database CPU µs/req |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results)
    lines.push(
      `| ${r.case.name} | ${r.case.q === undefined ? '(none)' : `\`${r.case.q}\``}${r.case.order ? ' (relevanz)' : ''}${r.case.facets ? ` \`${r.case.facets}\`` : ''} | ${r.case.page} | ${r.rows} | ` +
        `${r.p50Ms.toFixed(2)} | ${r.p95Ms.toFixed(2)} | ${us(r.cpuUsPerRequest)} | ${us(r.dbCpuUsPerRequest)} |`,
    );
  return lines.join('\n');
}
