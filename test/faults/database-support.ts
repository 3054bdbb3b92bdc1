// Helpers for the database-fault tests: the real `shelfmark serve` (its own process group) over
// a given database, a private PostgreSQL cluster the test may stop and start (never the shared
// one), requests on fresh connections that always end (answer or recorded error), and the
// checks every fault test makes on answers and logs.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseCombined } from '../logs/combined-line.ts';
import { freePort } from '../support/process.ts';
import { alive, readLines, sleep, tempDir, until } from './support.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const READY = /Shelfmark is serving \S+ \(listening on [^:]+:\d+(?:, worker (\d+))?\)/g;
export const STAFF = `Basic ${Buffer.from('personal:personal').toString('base64')}`;

export { alive, readLines, sleep, tempDir, until };

export interface Served {
  readonly pid: number;
  readonly base: string;
  readonly port: number;
  readonly accessLog: string;
  readonly errorLog: string;
  output(): string;
  /** Pids of the processes that said they serve (workers, or the process itself). */
  servers(): number[];
  /** SIGTERM to the group; waits (bounded) until every process of it is gone. */
  stop(): Promise<void>;
}

/** `shelfmark serve --workers N` over `databaseUrl`, logs in `dir/logs`; resolves when all serve. */
export async function serveShelfmark(o: {
  workers: number;
  databaseUrl: string;
  dir: string;
  demo?: boolean;
  /** SHELFMARK_CACHE_MIB; 0: every GET renders. */
  cacheMib?: number;
}): Promise<Served> {
  const port = await freePort();
  const logDir = path.join(o.dir, 'logs');
  const child: ChildProcess = spawn(NODE, ['src/cli/shelfmark.ts', 'serve', '--workers', String(o.workers)], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHELFMARK_BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: o.databaseUrl,
      SHELFMARK_DATA_DIR: path.join(o.dir, 'data'),
      SHELFMARK_LOG_DIR: logDir,
      SHELFMARK_LOG_LEVEL: 'warn',
      SHELFMARK_DEMO: o.demo === false ? '0' : '1',
      SHELFMARK_SECRET: 'database-fault-tests-secret-0123456789abcdef',
      ...(o.cacheMib !== undefined && { SHELFMARK_CACHE_MIB: String(o.cacheMib) }),
    },
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  process.once('exit', () => group('SIGKILL'));
  const servers = () => [...output.matchAll(READY)].map((m) => Number(m[1] ?? child.pid));
  const expected = Math.max(1, o.workers);
  await until(() => servers().length >= expected || child.exitCode !== null, 90_000);
  if (servers().length < expected) {
    group('SIGKILL');
    throw new Error(`shelfmark serve not ready within 90 s:\n${output}`);
  }
  return {
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    port,
    accessLog: path.join(logDir, 'access.log'),
    errorLog: path.join(logDir, 'error.log'),
    output: () => output,
    servers,
    async stop() {
      group('SIGTERM');
      const gone = () => !alive(child.pid!) && !servers().some(alive);
      if (!(await until(gone, 15_000))) group('SIGKILL');
      await until(gone, 5000);
    },
  };
}

export interface Answer {
  readonly status?: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** Set when there was no (whole) answer: a connection error or `timeout`. */
  readonly error?: string;
}

export interface Ask {
  readonly method?: string;
  readonly path: string;
  readonly accept?: string;
  readonly json?: unknown;
  readonly staff?: boolean;
  /** No answer within this is recorded as `timeout` (default 30 s). */
  readonly timeoutMs?: number;
}

/** One request on its own connection (so a worker that is stuck cannot hide behind keep-alive). */
export function ask(port: number, a: Ask): Promise<Answer> {
  return new Promise((resolve) => {
    const body = a.json === undefined ? undefined : JSON.stringify(a.json);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: a.method ?? 'GET',
        path: a.path,
        agent: false,
        headers: {
          'user-agent': 'database-faults',
          ...(a.accept && { accept: a.accept }),
          ...(a.staff && { authorization: STAFF }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', (e) => resolve({ headers: res.headers, body: text, error: String(e) }));
      },
    );
    req.setTimeout(a.timeoutMs ?? 30_000, () => {
      req.destroy();
      resolve({ headers: {}, body: '', error: 'timeout' });
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve({ headers: {}, body: '', error: e.code ?? String(e) }),
    );
    req.end(body);
  });
}

let unique = 0;
/** A person with a name no other request uses (the slug is its Location). */
export function newPerson(tag: string): { vorname: string; nachname: string } {
  unique += 1;
  return { vorname: `Fault${tag}`, nachname: `Probe${process.pid}x${unique}` };
}

export const FORMATS = [
  {
    accept: 'application/json',
    type: /^application\/problem\+json/,
    code: (b: string) => JSON.parse(b).code,
  },
  {
    accept: 'application/xml',
    type: /^application\/problem\+xml/,
    code: (b: string) => /<code>([A-Z_]+)<\/code>/.exec(b)?.[1],
  },
  {
    accept: 'text/html',
    type: /^text\/html/,
    code: (b: string) => (/<html[\s>]/.test(b) && /503/.test(b) ? 'html' : undefined),
  },
] as const;

/**
 * What a 503 for the database must look like: Retry-After, a problem body in the format the
 * request asked for (JSON/XML with the code; HTML a whole page).
 */
export function problemOf503(answer: Answer, accept: string, code: string): string | undefined {
  if (answer.status !== 503) return `status ${answer.status ?? answer.error}`;
  if (!/^\d+$/.test(String(answer.headers['retry-after'] ?? ''))) return 'no Retry-After';
  const format = FORMATS.find((f) => f.accept === accept)!;
  if (!format.type.test(String(answer.headers['content-type'] ?? '')))
    return `content-type ${answer.headers['content-type']} for ${accept}`;
  const found = format.code(answer.body);
  if (accept === 'text/html' ? found !== 'html' : found !== code) return `body ${answer.body.slice(0, 200)}`;
  return undefined;
}

/** Access-log lines that are not Apache combined. */
export function nonCombined(lines: string[]): string[] {
  return lines.filter((line) => parseCombined(line) === undefined);
}

/** Error-log entries other than start/stop notices (each entry is one line). */
export function problemEntries(lines: string[]): string[] {
  return lines.filter((line) => !/\[(mpm_cluster|core):notice\]/.test(line));
}

/** Worker deaths the supervisor logged (`AH00052: child pid N exit …`). */
export function childDeaths(lines: string[]): string[] {
  return lines.filter((line) => line.includes('AH00052'));
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  readonly port: number;
  /** URL of a database in this cluster. */
  url(database: string): string;
  start(): Promise<unknown>;
  /** `pg_ctl stop -m fast`: every connection is terminated, new ones refused. */
  stop(): Promise<unknown>;
  /** Runs SQL as the superuser (database `postgres`); returns psql's stdout. */
  psql(sqlText: string): Promise<string>;
  /** Stops the cluster and deletes its files. */
  remove(): void;
}

/** Runs a command without blocking this process (the load keeps going meanwhile). */
function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

/** Whether a private PostgreSQL cluster can be made here (the binaries and a `postgres` user). */
export function privatePostgresMissing(): string | undefined {
  if (!fs.existsSync(path.join(PG_BIN, 'initdb'))) return `${PG_BIN}/initdb not found`;
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return 'no postgres user';
  return undefined;
}

/** initdb into a temp directory as `postgres`, listening on 127.0.0.1 only, on a free port. */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = tempDir('shelfmark-pg-');
  fs.chmodSync(dir, 0o755);
  spawnSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = (bin: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, bin), ...args]);
  await asPostgres('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale',
    'C',
  ]);
  const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c max_connections=60`;
  const start = () =>
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  const stop = () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    spawnSync('runuser', [
      '-u',
      'postgres',
      '--',
      path.join(PG_BIN, 'pg_ctl'),
      '-D',
      data,
      '-m',
      'immediate',
      'stop',
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    psql: (sqlText) =>
      run(path.join(PG_BIN, 'psql'), [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        'postgres',
        '-Atqc',
        sqlText,
      ]),
    remove,
  };
}

export type Kind = 'read' | 'static' | 'write';
export interface Outcome {
  readonly kind: Kind;
  readonly accept: string;
  readonly answer: Answer;
  /** When it was sent, in the order of the whole load. */
  readonly n: number;
}

export interface Load {
  readonly outcomes: Outcome[];
  /** Outcomes so far that match. */
  count(match: (o: Outcome) => boolean): number;
  stop(): Promise<void>;
}

/**
 * `clients` loops sending, in turn, a read of a person (JSON, XML or HTML), a static file and a
 * new person (staff, JSON), each on a fresh connection, until stop() or `maxRequests`.
 */
export function mixedLoad(port: number, o: { clients: number; maxRequests?: number }): Load {
  const outcomes: Outcome[] = [];
  let next = 0;
  let stopped = false;
  const max = o.maxRequests ?? 5000;
  const one = async (n: number): Promise<Outcome> => {
    const kind: Kind = (['read', 'static', 'read', 'write'] as const)[n % 4]!;
    const accept = FORMATS[Math.floor(n / 4) % FORMATS.length]!.accept;
    if (kind === 'static')
      return { kind, accept, n, answer: await ask(port, { path: '/static/shelfmark.css' }) };
    if (kind === 'read')
      return { kind, accept, n, answer: await ask(port, { path: '/personen/goethe', accept }) };
    const answer = await ask(port, {
      method: 'POST',
      path: '/personen',
      accept: 'application/json',
      staff: true,
      json: newPerson('L'),
    });
    return { kind, accept: 'application/json', n, answer };
  };
  const client = async () => {
    while (!stopped && next < max) {
      const outcome = await one(next++);
      outcomes.push(outcome);
      if (outcome.answer.error) await sleep(20);
    }
  };
  const clients = Array.from({ length: o.clients }, client);
  return {
    outcomes,
    count: (match) => outcomes.filter(match).length,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Everything a load under a database fault must show; returns the list of what went wrong. */
export async function loadProblems(port: number, load: Load, code: string): Promise<string[]> {
  const wrong: string[] = [];
  for (const { kind, accept, answer, n } of load.outcomes) {
    const where = `#${n} ${kind} ${accept}`;
    if (answer.error) wrong.push(`${where}: no answer (${answer.error})`);
    else if (kind === 'static' && answer.status !== 200) wrong.push(`${where}: static ${answer.status}`);
    else if (answer.status === 503) {
      const problem = problemOf503(answer, accept, code);
      if (problem) wrong.push(`${where}: 503 ${problem}`);
    } else if (answer.status !== (kind === 'write' ? 201 : 200)) wrong.push(`${where}: ${answer.status}`);
  }
  // No acknowledged write is lost.
  for (const { answer } of load.outcomes.filter((o) => o.kind === 'write' && o.answer.status === 201)) {
    const location = new URL(String(answer.headers.location)).pathname;
    // As staff: a new person has no works yet, so only staff may see it (ADR 0062).
    const read = await ask(port, { path: location, accept: 'application/json', staff: true });
    if (read.status !== 200) wrong.push(`acknowledged ${location}: ${read.status ?? read.error}`);
  }
  return wrong;
}

/**
 * The error log after a fault: how many entries, and whether the 503s are all accounted for by
 * first occurrences plus "repeated N times" summaries (nothing unexplained, nothing per request).
 */
export function errorLogSummary(lines: string[]): { entries: string[]; firsts: number; repeated: number } {
  const entries = problemEntries(lines);
  let repeated = 0;
  let firsts = 0;
  for (const line of entries) {
    const m = /\.\.\. repeated (\d+) times/.exec(line);
    if (m) repeated += Number(m[1]);
    else firsts += 1;
  }
  return { entries, firsts, repeated };
}
