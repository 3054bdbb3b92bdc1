// Runs `shelfmark serve` as its own process group (an npm script's command line through sh, as
// npm runs it), waits for its ready line, and stops the whole group with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../support/process.ts';
import { readLines, tempDir } from './real-app.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const READY = /^Shelfmark is serving \S+ \(listening on [^:]+:(\d+)(, worker (\d+))?\)$/m;

export interface Served {
  readonly child: ChildProcess;
  readonly base: string;
  readonly port: number;
  readonly dir: string;
  /** The ready line named a worker (served under the supervisor) rather than the process itself. */
  readonly worker: boolean;
  output(): string;
  /** SIGTERM to the group; resolves with both logs once the process has exited. */
  stop(): Promise<{ access: string[]; error: string[]; code: number | null }>;
}

/** A package.json script's command line. */
export function npmScript(name: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const script = pkg.scripts[name];
  if (!script) throw new Error(`no script ${name}`);
  return script;
}

export async function serve(command: string, env: Record<string, string> = {}): Promise<Served> {
  const dir = tempDir();
  const port = await freePort();
  const logDir = path.join(dir, 'logs');
  const child = spawn('sh', ['-c', command], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // What npm puts first on PATH: node_modules/.bin (Node 24).
      PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
      PORT: String(port),
      SHELFMARK_DATA_DIR: path.join(dir, 'data'),
      SHELFMARK_LOG_DIR: logDir,
      SHELFMARK_LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  process.once('exit', () => kill('SIGKILL'));
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill('SIGKILL');
      reject(new Error(`not ready within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const m = READY.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before it was ready:\n${output}`));
    });
  });
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    port,
    dir,
    worker: ready[2] !== undefined,
    output: () => output,
    async stop() {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      const code = await exited;
      // sh may be gone before the server it started has flushed its logs: wait for the group.
      while (groupAlive()) await new Promise((r) => setTimeout(r, 50));
      clearTimeout(timer);
      return {
        access: readLines(path.join(logDir, 'access.log')),
        error: readLines(path.join(logDir, 'error.log')),
        code,
      };
    },
  };
}
