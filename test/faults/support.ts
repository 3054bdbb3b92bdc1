// Helpers for the process-fault tests: the real `shelfmark serve` as its own process group
// (so signals can go to the supervisor alone or to the whole group), the workers it reports,
// a load of numbered requests that records what each got, and the access-log lines by number.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/process.ts';
import { inCi } from '../support/requirements.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const READY = /Shelfmark is serving \S+ \(listening on [^:]+:\d+(?:, worker (\d+))?\)/g;

export interface Serve {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly base: string;
  readonly port: number;
  readonly dir: string;
  readonly accessLog: string;
  readonly errorLog: string;
  output(): string;
  /** Worker pids in the order their ready lines came (the process itself with --workers 0). */
  ready(): number[];
  /** Resolves with the exit code or signal; bounded by `ms`. */
  exited(ms: number): Promise<string>;
  /** SIGTERM to the group, SIGKILL after 15 s; waits for every process of the group. */
  stop(): Promise<void>;
}

export interface ServeOptions {
  readonly workers: number;
  readonly env?: Record<string, string>;
  /** The command: shelfmark.ts's arguments, or a whole shell line (npm script). */
  readonly shell?: string;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it holds or `ms` pass; returns whether it held. */
export async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

export async function serve(opts: ServeOptions, dir = tempDir('shelfmark-faults-')): Promise<Serve> {
  const port = await freePort();
  const logDir = path.join(dir, 'logs');
  const env = {
    ...process.env,
    PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    SHELFMARK_BASE_URL: `http://127.0.0.1:${port}`,
    SHELFMARK_DATA_DIR: path.join(dir, 'data'),
    SHELFMARK_LOG_DIR: logDir,
    SHELFMARK_LOG_LEVEL: 'info',
    SHELFMARK_WORKERS: String(opts.workers),
    SHELFMARK_SECRET: 'fault-tests-secret-0123456789abcdefghijkl',
    ...opts.env,
  };
  const child = opts.shell
    ? spawn('sh', ['-c', opts.shell], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env })
    : spawn(path.join(ROOT, 'node_modules/.bin/node'), ['src/cli/shelfmark.ts', 'serve'], {
        cwd: ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env,
      });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exit = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
  );
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  process.once('exit', () => group('SIGKILL'));
  const ready = () => [...output.matchAll(READY)].map((m) => Number(m[1] ?? child.pid));
  const expected = Math.max(1, opts.workers);
  if (!(await until(() => ready().length >= expected || child.exitCode !== null, 90_000))) group('SIGKILL');
  if (ready().length < expected) throw new Error(`not ready within 90 s:\n${output}`);
  return {
    child,
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    port,
    dir,
    accessLog: path.join(logDir, 'access.log'),
    errorLog: path.join(logDir, 'error.log'),
    output: () => output,
    ready,
    exited: (ms) => Promise.race([exit, sleep(ms).then(() => 'still running')]),
    async stop() {
      group('SIGTERM');
      const gone = () => !alive(child.pid!) && !ready().some(alive);
      if (!(await until(gone, 15_000))) group('SIGKILL');
      await until(gone, 5000);
    },
  };
}

export function readLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'latin1').split('\n').filter(Boolean) : [];
}

/** A whole combined-format line for a numbered request, and its number and status. */
export const NUMBERED_LINE =
  /^127\.0\.0\.1 - (?:-|\w+) \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "(?:GET|POST) \/[^ "]*[?&]n=(\d+)[^ "]* HTTP\/1\.1" (\d{3}) (?:\d+|-) "-" "faults"$/;

export type Outcome = { n: number; status?: number; error?: string };

export interface Load {
  readonly outcomes: Outcome[];
  /** Called with every answer as it arrives (e.g. to kill a process right after one). */
  onAnswer: (outcome: Outcome) => void;
  answered(): number;
  /** Stops sending; resolves when every client has finished its last request. */
  stop(): Promise<void>;
}

/**
 * `clients` loops, each sending numbered requests one after the other (on a fresh connection
 * unless keepAlive) until stop(), or until `maxRequests` in all. Every request is bounded
 * by `timeoutMs`: a hang is recorded as the error `timeout`, never waited for.
 */
export function startLoad(
  port: number,
  o: {
    clients: number;
    path?: (n: number) => string;
    maxRequests?: number;
    timeoutMs?: number;
    pauseOnErrorMs?: number;
    /** Reuse connections (more requests per second) instead of one connection per request. */
    keepAlive?: boolean;
  },
): Load {
  const agent = o.keepAlive ? new http.Agent({ keepAlive: true, maxSockets: o.clients }) : false;
  const outcomes: Outcome[] = [];
  let next = 0;
  let stopped = false;
  const max = o.maxRequests ?? 20_000;
  const pathOf = o.path ?? ((n: number) => `/personen/goethe.json?n=${n}`);
  const one = (n: number) =>
    new Promise<Outcome>((resolve) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: pathOf(n), agent, headers: { 'user-agent': 'faults' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ n, status: res.statusCode! }));
          res.on('error', (e) => resolve({ n, status: res.statusCode!, error: String(e) }));
        },
      );
      req.setTimeout(o.timeoutMs ?? 20_000, () => {
        req.destroy();
        resolve({ n, error: 'timeout' });
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ n, error: e.code ?? String(e) }));
    });
  const client = async () => {
    while (!stopped && next < max) {
      const outcome = await one(++next);
      outcomes.push(outcome);
      if (!outcome.error) load.onAnswer(outcome);
      if (outcome.error && o.pauseOnErrorMs) await sleep(o.pauseOnErrorMs);
    }
  };
  const clients = Array.from({ length: o.clients }, client);
  const load: Load = {
    outcomes,
    onAnswer: () => {},
    answered: () => outcomes.filter((x) => x.status !== undefined && !x.error).length,
    async stop() {
      stopped = true;
      await Promise.all(clients);
      if (agent) agent.destroy();
    },
  };
  return load;
}

/** Request numbers in the access log, each with how often it is there. */
export function loggedNumbers(lines: string[]): { counts: Map<number, number>; malformed: string[] } {
  const counts = new Map<number, number>();
  const malformed: string[] = [];
  for (const line of lines) {
    const m = NUMBERED_LINE.exec(line);
    if (!m) malformed.push(line);
    else counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
  }
  return { counts, malformed };
}

/**
 * Mounts a tmpfs of `size` (e.g. `64k`) on `dir`; returns how to unmount it. Needs root (or
 * CAP_SYS_ADMIN); tmpfsSkip() says whether that works here.
 */
export function mountTmpfs(dir: string, size: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  return () => {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' }); // still busy: detach it now
    }
  };
}

/**
 * `{ skip }` for a test that mounts a tmpfs: skipped with the reason where mounting is not
 * possible (not root, no mount(8), a container without CAP_SYS_ADMIN); in CI never skipped,
 * so the test fails there instead of passing unnoticed.
 */
export function tmpfsSkip(): { skip: string | false } {
  if (inCi()) return { skip: false };
  const probe = tempDir('shelfmark-tmpfs-probe-');
  try {
    mountTmpfs(probe, '4k')();
    return { skip: false };
  } catch (err) {
    const why = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim();
    return { skip: `full-disk fault tests skipped: cannot mount a tmpfs (${why || 'mount failed'})` };
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}
