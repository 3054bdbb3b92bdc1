// A real `shelfmark serve` for end-to-end tests: the CLI as a child process on a free port, over
// a database the test chose (a SQLite file or a fresh PostgreSQL schema) with the demo catalogue,
// its data and logs in the test's temporary directory. Resolves once every worker said it listens
// and the server answers HTTP, so a test's first request meets a whole server.
import { join } from 'node:path';
import { freePort, startProcess, type StartedProcess, type StartOptions } from '../support/process.ts';

/** The repository: the CLI runs from here. */
export const ROOT = join(import.meta.dirname, '../..');

/** The line each serving process prints once its socket listens (with `, worker PID` under the supervisor). */
const READY = /Shelfmark is serving (\S+) \(listening on [^)]*\)/g;

export interface ServeOptions {
  /** DATABASE_URL: a SQLite file path or a postgres:// URL. */
  readonly databaseUrl: string;
  /** The test's temporary directory: the server's data/ and logs/ go in it. */
  readonly dir: string;
  /** `--workers N` (default 0: one process, no supervisor). */
  readonly workers?: number;
  /**
   * Laid over the defaults below (a value of undefined removes the variable), e.g. a setting the
   * test relies on (SHELFMARK_HOLD_DAYS) or one the caller's environment must not change.
   */
  readonly env?: Record<string, string | undefined>;
  /** How long to wait for every worker's ready line (default 30 s). */
  readonly readyTimeoutMs?: number;
  /** Stops the server when this test (or suite) ends. */
  readonly t?: StartOptions['t'];
}

export interface ServedShelfmark {
  /** http://127.0.0.1:PORT — also the configured public base URL. */
  readonly base: string;
  readonly process: StartedProcess;
  /** SIGTERM (SIGKILL after a grace period); resolves when the server is gone. */
  stop(): Promise<void>;
}

/** Waits until the server answers HTTP (a worker's ready line is printed when it listens; be sure). */
export async function answering(base: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const ok = await fetch(`${base}/`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${base} does not answer`);
}

export async function serveShelfmark(options: ServeOptions): Promise<ServedShelfmark> {
  const { databaseUrl, dir, workers = 0, readyTimeoutMs = 30_000 } = options;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startProcess(
    process.execPath,
    ['src/cli/shelfmark.ts', 'serve', '--workers', String(workers)],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      SHELFMARK_DATA_DIR: join(dir, 'data'),
      SHELFMARK_LOG_DIR: join(dir, 'logs'),
      SHELFMARK_BASE_URL: base,
      SHELFMARK_DEMO: '1',
      // --workers says how many; the environment's setting must not matter.
      SHELFMARK_WORKERS: undefined,
      ...options.env,
    },
    READY,
    { cwd: ROOT, readyTimeoutMs, ...(options.t && { t: options.t }) },
  );
  // The first ready line is one worker's: a request could meet a server still starting the others.
  const deadline = Date.now() + readyTimeoutMs;
  while ((started.output().match(READY) ?? []).length < Math.max(1, workers)) {
    if (Date.now() > deadline) {
      await started.stop();
      throw new Error(`not every worker started within ${readyTimeoutMs} ms:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await answering(base).catch(async (error: unknown) => {
    await started.stop();
    throw error;
  });
  return { base, process: started, stop: () => started.stop() };
}
