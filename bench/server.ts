// The server under test: `shelfmark serve --workers 0` as a child process, so its CPU time can
// be read from /proc/<pid>/stat apart from the load generator's and the benchmark's own.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cleanEnv } from './catalogue.ts';

export interface ChildServer {
  readonly pid: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** User + system CPU seconds the server process has used so far; undefined without /proc. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  readonly root: string;
  readonly dataDir: string;
  readonly logDir: string;
  /** Default: the SQLite file in dataDir. */
  readonly databaseUrl?: string | undefined;
  /** SHELFMARK_ACCESS_LOG: a path, `/dev/null`, or `off`; default: access.log in logDir. */
  readonly accessLog?: string | undefined;
  /** `--cache-mib`: the representation cache's size (`0`: off); undefined: the default. */
  readonly cacheMib?: number | undefined;
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly nodeArgs?: readonly string[];
  /** `--workers`: 0 (the default) is one process. */
  readonly workers?: number;
  /** Added to the server's cleaned environment. */
  readonly env?: Readonly<Record<string, string>>;
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of a process in seconds (fields 14 and 15 of /proc/<pid>/stat). */
export function processCpuSeconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count from its last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks / clockTicks() : undefined;
}

/** The pids of a process's live children (from /proc). */
export function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** CPU seconds of a process and its live children (the workers under `--workers N`). */
export function treeCpuSeconds(pid: number): number | undefined {
  const own = processCpuSeconds(pid);
  if (own === undefined) return undefined;
  return childPids(pid).reduce((sum, child) => sum + (processCpuSeconds(child) ?? 0), own);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server and resolves once it prints its ready line. */
export async function startChildServer(opts: ChildServerOptions): Promise<ChildServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = [
    ...(opts.nodeArgs ?? []),
    path.join(opts.root, 'src/cli/shelfmark.ts'),
    'serve',
    `--workers=${opts.workers ?? 0}`,
    '--no-demo',
    `--port=${port}`,
    '--host=127.0.0.1',
    `--base-url=${origin}`,
    `--data-dir=${opts.dataDir}`,
    `--log-dir=${opts.logDir}`,
    `--access-log=${opts.accessLog ?? path.join(opts.logDir, 'access.log')}`,
    ...(opts.databaseUrl ? [`--database-url=${opts.databaseUrl}`] : []),
    ...(opts.cacheMib !== undefined ? [`--cache-mib=${opts.cacheMib}`] : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: opts.root,
    env: { ...cleanEnv(), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitUntilReady(child);
  const pid = child.pid!;
  return {
    pid,
    origin,
    cpuSeconds: () => treeCpuSeconds(pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

function waitUntilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not get ready within 60 s:\n${out}${err}`));
    }, 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Shelfmark is serving/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before it was ready:\n${out}${err}`));
    });
  });
}
