// `npm run bench [-- --quick | --help]`: Shelfmark under load on a 100,000-work catalogue;
// `npm run bench -- --peers`: Shelfmark beside the peer servers (bench/peers.ts).
// See docs/decisions/0005-benchmarks.md for what is measured and why CPU per request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedCatalogue, copyCatalogue } from './catalogue.ts';
import { checkCase, FIRST_PAGE, FIXED_CASES, keysetCases, PERSON_JSON, type BenchCase } from './cases.ts';
import { wrkInstalled } from './load.ts';
import { measure, medianOf, type MeasureSettings, type Measurement } from './measure.ts';
import { parseBenchOptions, USAGE, type BenchOptions } from './options.ts';
import { runPeers } from './peers.ts';
import { runMixed, runPgWriters } from './mixed.ts';
import { measureSearch, searchTable } from './search-http.ts';
import pg from 'pg';
import { preparePostgres } from './postgres.ts';
import { profileDir as profileDirOf, profileNodeArgs, profileText, summariseProfile } from './profile.ts';
import { startChildServer, type ChildServer } from './server.ts';
import { costLine, measurementTable } from './table.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (m: string) => process.stderr.write(m + '\n');

async function runCases(
  server: ChildServer,
  opts: BenchOptions,
  settings: MeasureSettings,
): Promise<Measurement[]> {
  const cases: BenchCase[] = [...FIXED_CASES, ...(await keysetCases(server.origin, opts.depth))];
  const results: Measurement[] = [];
  for (const c of cases.filter((x) => !opts.only || opts.only.test(x.name))) {
    await checkCase(server.origin, c);
    say(`  ${c.name} …`);
    results.push(await measure(server, c, settings));
  }
  return results;
}

/** Keyset paging should make a deep page cost what an early one does. */
function keysetLine(rows: readonly Measurement[]): string[] {
  const cpu = (name: string) => rows.find((r) => r.name === name)?.cpuUsPerRequest;
  const keyset = rows.filter((r) => r.name.endsWith('(keyset)'));
  const first = cpu(FIRST_PAGE.name);
  const second = keyset[0]?.cpuUsPerRequest;
  const deep = keyset[keyset.length - 1];
  if (keyset.length < 2 || first === undefined || second === undefined || deep?.cpuUsPerRequest === undefined)
    return [];
  const ratio = (n: number) => (deep.cpuUsPerRequest! / n).toFixed(2);
  return [
    '',
    `- ${deep.name} costs ${ratio(second)} × page 2's CPU and ${ratio(first)} × the first page's ` +
      '(the first page has no cursor to decode, no prev link and no probe for it).',
  ];
}

/** Person JSON with the access log off, formatted into /dev/null, and written to a file, alternately. */
async function accessLogCost(
  withFile: ChildServer,
  start: (accessLog: string) => Promise<ChildServer>,
  opts: BenchOptions,
  settings: MeasureSettings,
): Promise<Measurement[]> {
  const variants: [string, ChildServer][] = [
    ['access log off', await start('off')],
    ['access log → /dev/null', await start('/dev/null')],
    ['access log → file', withFile],
  ];
  const runs = new Map<string, Measurement[]>(variants.map(([name]) => [name, []]));
  try {
    for (let round = 1; round <= opts.rounds; round++)
      for (const [name, server] of variants) {
        say(`  ${name}, round ${round}/${opts.rounds} …`);
        const m = await measure(server, PERSON_JSON, settings);
        runs.get(name)!.push({ ...m, name });
      }
  } finally {
    await variants[0]![1].stop();
    await variants[1]![1].stop();
  }
  return variants.map(([name]) => medianOf(runs.get(name)!));
}

async function main(): Promise<void> {
  const parsed = parseBenchOptions(process.argv.slice(2), process.env);
  if (parsed === 'help') return void console.log(USAGE);
  const opts = parsed;
  if (opts.peers) return peers(opts);
  if (opts.search) return search(opts);
  if (opts.mixed || opts.pgWriters !== undefined) {
    const report = opts.mixed ? await runMixed(root, opts, say) : await runPgWriters(root, opts, say);
    console.log(report);
    return;
  }
  const tool = opts.tool ?? (wrkInstalled() ? 'wrk' : 'autocannon');
  const settings: MeasureSettings = { ...opts, tool };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-bench-'));
  const dataDir = path.join(work, 'data');
  const logDir = path.join(work, 'logs');
  const profileDir = profileDirOf(root);
  const catalogue = await cachedCatalogue(root, opts.works, say);
  say(`catalogue: ${path.relative(root, catalogue.file)}${catalogue.built ? ' (built)' : ' (cached)'}`);
  copyCatalogue(catalogue.file, dataDir);
  if (opts.profile) fs.rmSync(profileDir, { recursive: true, force: true });
  const nodeArgs = profileNodeArgs(root, opts.profile);
  const start = (accessLog?: string, databaseUrl?: string) =>
    startChildServer({ root, dataDir, logDir, accessLog, databaseUrl, nodeArgs, cacheMib: opts.cacheMib });

  const loadavg = os.loadavg().map((n) => n.toFixed(2));
  const sections: string[] = [
    `# Shelfmark benchmarks — ${new Date().toISOString()}`,
    '',
    `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average at start ${loadavg.join(' ')}. ` +
      `${tool}: ${settings.threads} threads, ${settings.connections} connections, ${settings.seconds} s per case ` +
      `after ${settings.warmupSeconds} s warm-up. Catalogue: ${opts.works.toLocaleString('en')} synthetic works + the demo. ` +
      `Server: \`shelfmark serve --workers 0\` (one process), combined access log to a file, ` +
      `representation cache ${opts.cacheMib === undefined ? 'at its default size' : opts.cacheMib === 0 ? 'off' : `${opts.cacheMib} MiB`}. ` +
      `CPU µs/req = the server process's utime+stime (/proc/<pid>/stat) during the run ÷ requests.`,
  ];
  say(`server: SQLite, ${tool}, ${settings.seconds} s per case`);
  const server = await start();
  try {
    const rows = await runCases(server, opts, settings);
    sections.push('', '## SQLite', '', measurementTable(rows), ...keysetLine(rows));
    if (!opts.only || opts.only.test(PERSON_JSON.name)) {
      say('access log cost (person JSON):');
      const [off, devNull, file] = await accessLogCost(server, (log) => start(log), opts, settings);
      sections.push(
        '',
        `## Access log cost (person JSON, median of ${opts.rounds} alternating round(s))`,
        '',
        measurementTable([off!, devNull!, file!], 'variant'),
        '',
        `- ${costLine('formatting a combined line (→ /dev/null vs off)', devNull!, off!)}`,
        `- ${costLine('formatting and writing to a file (file vs off)', file!, off!)}`,
      );
    }
  } finally {
    await server.stop();
  }
  if (opts.pg) {
    say('server: PostgreSQL');
    await preparePostgres(root, opts.pg, opts.works, say);
    const pgServer = await start(undefined, opts.pg);
    try {
      const rows = await runCases(pgServer, opts, settings);
      sections.push(
        '',
        '## PostgreSQL',
        '',
        'CPU µs/req counts the Node server only; PostgreSQL works in its own processes.',
        '',
        measurementTable(rows),
        ...keysetLine(rows),
      );
    } finally {
      await pgServer.stop();
    }
  }
  const report = sections.join('\n') + '\n';
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tmp', 'bench-results.md'), report);
  console.log(report);
  say(`written to tmp/bench-results.md`);
  if (opts.profile)
    for (const name of fs.readdirSync(profileDir).filter((n) => n.endsWith('.cpuprofile'))) {
      const file = path.join(profileDir, name);
      say(profileText(path.relative(root, file), summariseProfile(file)));
    }
  if (opts.keep) say(`kept ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}

/** `--search`: latency per search class on SQLite and, with --pg, PostgreSQL (bench/search-http.ts). */
async function search(opts: BenchOptions): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-bench-'));
  const dataDir = path.join(work, 'data');
  const logDir = path.join(work, 'logs');
  const cacheMib = opts.cacheMib ?? 0;
  const warmup = opts.given.has('warmup') ? opts.warmupSeconds : 5;
  let sqlite = opts.sqlite;
  if (sqlite === undefined) {
    const catalogue = await cachedCatalogue(root, opts.works, say);
    copyCatalogue(catalogue.file, dataDir);
    sqlite = path.join(dataDir, 'shelfmark.db');
  }
  const engines: [string, string][] = [['SQLite', sqlite]];
  if (opts.pg) {
    await preparePostgres(root, opts.pg, opts.works, say);
    engines.push(['PostgreSQL', opts.pg]);
  }
  const sections = [
    `# Shelfmark search latency — ${new Date().toISOString()}`,
    '',
    `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average at start ` +
      `${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}. One client, requests one after another, the cases ` +
      `in turns: ${opts.requests} timed requests per case after ${warmup} untimed. Pages of 20 (JSON). ` +
      `Representation cache ${cacheMib === 0 ? 'off' : `${cacheMib} MiB`}. Server: \`shelfmark serve --workers 0\`.`,
  ];
  try {
    for (const [name, databaseUrl] of engines) {
      say(`server: ${name}`);
      const server = await startChildServer({
        root,
        dataDir,
        logDir,
        databaseUrl,
        cacheMib,
        accessLog: 'off',
      });
      try {
        // PostgreSQL works in its own processes: the backends serving this database count too
        // (SQLite runs inside the server, in its CPU figure).
        const backends = databaseUrl.startsWith('postgres') ? () => backendsOf(databaseUrl) : undefined;
        const results = await measureSearch(server, opts.requests, warmup, say, backends);
        sections.push('', `## ${name}`, '', searchTable(results));
      } finally {
        await server.stop();
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const report = sections.join('\n') + '\n';
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tmp', 'bench-search.md'), report);
  console.log(report);
  say('written to tmp/bench-search.md');
}

/** The PostgreSQL backends connected to the database at `url` (a scratch database: only the server's). */
async function backendsOf(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        and backend_type = 'client backend'`,
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** `--peers`: the shared harness, with only the knobs given here overriding its defaults. */
async function peers(opts: BenchOptions): Promise<void> {
  const given = (name: string, value: number) => (opts.given.has(name) ? value : undefined);
  const report = await runPeers(
    root,
    {
      rounds: given('rounds', opts.rounds),
      seconds: given('seconds', opts.seconds),
      warmupSeconds: given('warmup', opts.warmupSeconds),
      threads: given('threads', opts.threads),
      connections: given('connections', opts.connections),
      pg: opts.pg,
      cacheMib: opts.cacheMib,
    },
    say,
  );
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tmp', 'bench-peers.md'), report);
  console.log(report);
  say('written to tmp/bench-peers.md');
}

main().catch((err: unknown) => {
  say(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
