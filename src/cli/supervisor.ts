// The supervising process (httpd's parent): forks N workers with node:cluster, replaces a worker
// that dies (an uncaught error outside a request, process.abort(), running out of memory) and
// logs it like httpd's `AH00052: child pid N exit signal Aborted (6)`; SIGTERM/SIGINT stop
// everything gracefully, SIGHUP makes every process reopen its log files (logrotate).
// See docs/decisions/0013-supervisor.md.
import cluster, { type Worker } from 'node:cluster';
import {
  describeError,
  errorLogMessage,
  logChildExit,
  logShutdown,
  logStarted,
  type ErrorLog,
} from '../logging/index.ts';

/** What a worker process runs: started by startWorker, stopped and reopened on request. */
export interface WorkerHandle {
  /** Stop accepting, finish in-flight requests within graceMs, flush the logs. */
  stop(graceMs: number): Promise<void>;
  /** Reopen the worker's log files. */
  reopenLogs(): Promise<void>;
  /** The worker's error log (uncaught errors are written there before the worker exits). */
  readonly errorLog: ErrorLog;
}

export interface RestartBrake {
  /** More deaths than this within windowMs delay the next start … */
  readonly maxRestarts: number;
  readonly windowMs: number;
  /** … by 1 s, 2 s, 4 s … up to maxDelayMs. */
  readonly maxDelayMs: number;
}

export interface SupervisorOptions {
  readonly workers: number;
  /** The primary's error log (start/stop notices, child exits). Only used in the primary. */
  readonly errorLog: () => ErrorLog;
  /** Runs in each worker: start the HTTP server and its logs. */
  readonly startWorker: () => Promise<WorkerHandle>;
  readonly serverVersion?: string;
  readonly commandLine?: string;
  /** Bound on finishing in-flight requests at shutdown (default 10 s). */
  readonly graceMs?: number;
  readonly brake?: RestartBrake;
}

type Message = { shelfmark: 'shutdown' | 'reopen' };
const DEFAULT_BRAKE: RestartBrake = { maxRestarts: 5, windowMs: 10_000, maxDelayMs: 30_000 };

/** In the primary: resolves when every worker has stopped after SIGTERM; in a worker: once started. */
export async function runSupervisor(opts: SupervisorOptions): Promise<void> {
  if (cluster.isPrimary) return runPrimary(opts);
  return runWorker(opts);
}

async function runWorker(opts: SupervisorOptions): Promise<void> {
  const graceMs = opts.graceMs ?? 10_000;
  let handle: WorkerHandle | undefined = undefined;
  process.on('uncaughtException', (err) => {
    // Outside any request (request errors are caught by the app): log, flush, die; the primary
    // logs the exit and starts a new worker.
    if (handle) {
      handle.errorLog.log('error', 'shelfmark', 'Uncaught ' + errorLogMessage(describeError(err)));
      handle.errorLog.sink.flushSync();
    } else process.stderr.write(`shelfmark worker ${process.pid}: ${err.stack ?? String(err)}\n`);
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    throw reason instanceof Error ? reason : new Error(`Unhandled rejection: ${String(reason)}`);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await handle?.stop(graceMs);
    process.exit(0);
  };
  // The signals a terminal sends to the whole process group are the primary's business.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => void stop());
  process.on('SIGHUP', () => void handle?.reopenLogs());
  process.on('message', (msg: Message) => {
    if (msg?.shelfmark === 'shutdown') void stop();
    else if (msg?.shelfmark === 'reopen') void handle?.reopenLogs();
  });
  handle = await opts.startWorker();
}

function runPrimary(opts: SupervisorOptions): Promise<void> {
  const errorLog = opts.errorLog();
  const brake = opts.brake ?? DEFAULT_BRAKE;
  const graceMs = opts.graceMs ?? 10_000;
  const deaths: number[] = [];
  let shuttingDown = false;

  logStarted(
    errorLog,
    opts.serverVersion ?? `Shelfmark (Node.js ${process.version})`,
    opts.commandLine ?? process.argv.join(' '),
  );

  const fork = () => cluster.fork();
  for (let i = 0; i < opts.workers; i++) fork();

  const send = (w: Worker, msg: Message) => {
    if (w.isConnected()) w.send(msg);
  };

  cluster.on('exit', (worker, code, signal) => {
    if (shuttingDown) return;
    logChildExit(errorLog, worker.process.pid ?? 0, code, signal);
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && deaths[0]! < now - brake.windowMs) deaths.shift();
    const excess = deaths.length - brake.maxRestarts;
    if (excess <= 0) return void fork();
    const delay = Math.min(brake.maxDelayMs, 1000 * 2 ** (excess - 1));
    errorLog.log(
      'error',
      'mpm_cluster',
      `${deaths.length} workers died within ${brake.windowMs / 1000} s: waiting ${delay / 1000} s before starting the next one`,
    );
    setTimeout(() => {
      if (!shuttingDown) fork();
    }, delay).unref();
  });

  process.on('SIGHUP', () => {
    void errorLog.sink.reopen();
    for (const w of Object.values(cluster.workers ?? {})) if (w) send(w, { shelfmark: 'reopen' });
  });

  return new Promise<void>((resolve) => {
    const shutdown = (signal: NodeJS.Signals) => {
      if (shuttingDown) return;
      shuttingDown = true;
      logShutdown(errorLog, signal);
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      const killer = setTimeout(
        () => workers.forEach((w) => w.process.kill('SIGKILL')),
        graceMs + 5000,
      ).unref();
      let left = workers.length;
      const finish = async () => {
        clearTimeout(killer);
        await errorLog.sink.close();
        resolve();
      };
      if (left === 0) return void finish();
      for (const w of workers) {
        w.once('exit', () => {
          if (--left === 0) void finish();
        });
        send(w, { shelfmark: 'shutdown' });
      }
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
  });
}
