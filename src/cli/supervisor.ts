// The supervising process (httpd's parent): forks N workers with node:cluster, replaces a worker
// that dies (an uncaught error outside a request, process.abort(), running out of memory) and
// logs it like httpd's `AH00052: child pid N exit signal Aborted (6)`. Signals mean what they
// mean to httpd (signals.ts): TERM/INT stop, WINCH stops gracefully, USR1 restarts gracefully,
// HUP reopens the logs. The supervisor binds the listening socket and keeps it, as httpd's parent
// does, so the port never refuses a connection while workers are replaced (kept-socket.ts,
// ADR 0087); workers accept connections themselves from it, so no connection is ever held by
// this process: one whose worker dies is closed by the kernel, never left hanging. See
// docs/decisions/0013-supervisor.md.
import cluster, { type Worker } from 'node:cluster';
import {
  describeError,
  errorLogMessage,
  logChildExit,
  logGracefulRestart,
  logGracefulStop,
  logShutdown,
  logStarted,
  type ErrorLog,
} from '../logging/index.ts';
import { bindKeptSocket, BindError, type KeptSocket } from '../server/index.ts';
import { handleServiceSignals, ignoreGroupSignals } from './signals.ts';
import { superviseStatus } from './status-ipc.ts';
import { CANNOT_START, logCannotStart, startDelayMs } from './boot.ts';

/** What a worker process runs: started by startWorker, stopped and reopened on request. */
export interface WorkerHandle {
  /** Stop accepting, finish in-flight requests within graceMs, flush the logs. */
  stop(graceMs: number): Promise<void>;
  /** Reopen the worker's log files. */
  reopenLogs(): Promise<void>;
  /** Last resort at process exit: writes whatever log lines are still queued. */
  flushLogsSync?(): void;
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
  /** Where errorLog writes (`-`: stderr); a worker that cannot start also says so on stderr otherwise. */
  readonly errorLogPath?: string;
  /**
   * Runs in each worker: start the HTTP server and its logs, listening on the supervisor's socket
   * (descriptor `inheritedFd`) when `listen` is given; resolves once it listens.
   */
  readonly startWorker: (inheritedFd: number | undefined) => Promise<WorkerHandle>;
  /** The address the supervisor binds and keeps for its workers (without it, each worker listens itself). */
  readonly listen?: { readonly host: string; readonly port: number };
  readonly serverVersion?: string;
  readonly commandLine?: string;
  /** Bound on finishing in-flight requests at a stop (TERM/INT; default 10 s). */
  readonly graceMs?: number;
  /** Bound on finishing in-flight requests at a graceful stop or restart (default 5 min). */
  readonly gracefulMs?: number;
  readonly brake?: RestartBrake;
}

type Message = { shelfmark: 'shutdown'; graceMs: number } | { shelfmark: 'reopen' };
/** A worker's word that it listens (node:cluster's own 'listening' does not see a kept socket). */
type WorkerMessage = { shelfmark: 'listening' };
/** The kept socket's descriptor in every worker: the fifth entry of its stdio (after the IPC channel). */
const KEPT_FD = 4;
const KEPT_FD_ENV = 'SHELFMARK_KEPT_SOCKET';
const DEFAULT_BRAKE: RestartBrake = { maxRestarts: 5, windowMs: 10_000, maxDelayMs: 30_000 };
export const GRACEFUL_MS = 300_000; // httpd's Timeout: no request should take longer

/** In the primary: resolves when every worker has stopped after SIGTERM; in a worker: once started. */
export async function runSupervisor(opts: SupervisorOptions): Promise<void> {
  if (cluster.isPrimary) {
    const kept = opts.listen && (await keepSocket(opts.listen, opts.errorLog));
    return runPrimary(opts, kept);
  }
  return runWorker(opts);
}

async function runWorker(opts: SupervisorOptions): Promise<void> {
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
  process.on('exit', () => handle?.flushLogsSync?.());
  let stopping = false;
  const stop = async (graceMs: number) => {
    // A stop during a graceful stop (TERM after WINCH): whatever is still running gets graceMs.
    if (stopping) return void setTimeout(() => process.exit(0), graceMs).unref();
    stopping = true;
    await handle?.stop(graceMs);
    process.exit(0);
  };
  // The handlers below start work nobody can wait for: a failing stop() reaches the
  // unhandledRejection handler above (logged, exit 1, the primary notices), and reopening
  // never rejects (a sink reports its own open errors and keeps the old file).
  ignoreGroupSignals();
  process.on('SIGTERM', () => void stop(opts.graceMs ?? 10_000));
  process.on('SIGHUP', () => void handle?.reopenLogs());
  process.on('message', (msg: Message) => {
    if (msg?.shelfmark === 'shutdown') void stop(msg.graceMs);
    else if (msg?.shelfmark === 'reopen') void handle?.reopenLogs();
  });
  // The supervisor is gone (kill -9): node:cluster would exit at once, cutting off requests in
  // flight. Finish them (no new ones are accepted), then exit.
  process.prependListener('disconnect', () => {
    if (cluster.worker) cluster.worker.exitedAfterDisconnect = true;
    void stop(opts.graceMs ?? 10_000);
  });
  try {
    handle = await opts.startWorker(process.env[KEPT_FD_ENV] === undefined ? undefined : KEPT_FD);
    process.send?.({ shelfmark: 'listening' } satisfies WorkerMessage);
  } catch (err) {
    // The application did not load (a syntax error, a missing module) or start: say where, in
    // the error log, and let the supervisor try again later (boot.ts).
    logCannotStart(opts.errorLog(), err, opts.errorLogPath ?? '-');
    process.exit(CANNOT_START);
  }
}

/**
 * Binds the address for every worker to inherit. A port in use or an address the machine lacks
 * ends the start, as httpd's `AH00072: make_sock: could not bind` and `AH00451` do: no worker
 * could ever listen, so retrying would only hide it.
 */
async function keepSocket(
  listen: NonNullable<SupervisorOptions['listen']>,
  openErrorLog: () => ErrorLog,
): Promise<KeptSocket> {
  try {
    const kept = await bindKeptSocket(listen.host, listen.port);
    // Workers get the socket as a descriptor of their own (child_process's stdio), not from node:cluster.
    cluster.setupPrimary({ stdio: ['inherit', 'inherit', 'inherit', 'ipc', kept.fd] });
    return kept;
  } catch (err) {
    const errorLog = openErrorLog();
    if (err instanceof BindError) {
      errorLog.log('emerg', 'core', `AH00072: make_sock: could not bind to address ${err.address}`, {
        osError: err.osError,
      });
    } else errorLog.log('emerg', 'core', errorLogMessage(describeError(err)));
    errorLog.log('alert', 'core', 'AH00451: no listening sockets available, shutting down');
    await errorLog.sink.close();
    throw err;
  }
}

function runPrimary(opts: SupervisorOptions, kept: KeptSocket | undefined): Promise<void> {
  const errorLog = opts.errorLog();
  const brake = opts.brake ?? DEFAULT_BRAKE;
  const graceMs = opts.graceMs ?? 10_000;
  const gracefulMs = opts.gracefulMs ?? GRACEFUL_MS;
  const deaths: number[] = [];
  // Workers in a row that could not start; a worker that listens resets it.
  let cannotStart = 0;
  const delayed = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    // Kept referenced: with every worker failing, this timer is what the supervisor waits for.
    const timer = setTimeout(() => {
      delayed.delete(timer);
      if (!shuttingDown) run();
    }, ms);
    delayed.add(timer);
  };
  let shuttingDown = false;
  // Graceful restart: workers of older generations are retired one by one, each as soon as a
  // worker of the current generation listens, so the service never has fewer workers.
  let generation = 0;
  const generationOf = new Map<number, number>();
  let toRetire: Worker[] = [];
  const retiring = new Set<number>();

  const serverVersion = opts.serverVersion ?? `Shelfmark (Node.js ${process.version})`;
  const started = () => {
    logStarted(errorLog, serverVersion, opts.commandLine ?? process.argv.join(' '));
  };
  // Every worker's counts for /server-status (status-ipc.ts).
  const status = superviseStatus({ workers: opts.workers, serverVersion });
  started();

  // Workers accept from the shared socket themselves (see the header comment).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const fork = () => {
    const worker = cluster.fork(kept ? { [KEPT_FD_ENV]: '1' } : {});
    status.forked(worker);
    generationOf.set(worker.id, generation);
  };
  for (let i = 0; i < opts.workers; i++) fork();

  const send = (w: Worker, msg: Message) => {
    if (w.isConnected()) w.send(msg);
  };
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const retire = (w: Worker) => {
    retiring.add(w.id);
    status.retiring(w);
    send(w, { shelfmark: 'shutdown', graceMs: gracefulMs });
  };

  cluster.on('message', (worker, msg: WorkerMessage) => {
    if (msg?.shelfmark !== 'listening') return;
    status.listening(worker);
    cannotStart = 0;
    if (generationOf.get(worker.id) !== generation) return;
    const old = toRetire.shift();
    if (old && !shuttingDown) retire(old);
  });

  cluster.on('exit', (worker, code, signal) => {
    generationOf.delete(worker.id);
    status.exited(worker);
    if (shuttingDown || retiring.delete(worker.id)) return;
    logChildExit(errorLog, worker.process.pid ?? 0, code, signal);
    // An old worker waiting to be retired is not replaced: its successor is already there.
    const waiting = toRetire.indexOf(worker);
    if (waiting >= 0) return void toRetire.splice(waiting, 1);
    if (code === CANNOT_START) {
      // Its own entry says why (file, line); the next attempt waits 1 s, 2 s, 4 s … ≤ 60 s.
      const delay = startDelayMs(++cannotStart);
      errorLog.log(
        'error',
        'mpm_cluster',
        `worker pid ${worker.process.pid ?? 0} could not start the application (${cannotStart} in a row): starting the next one in ${delay / 1000} s`,
      );
      return later(delay, fork);
    }
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
    later(delay, fork);
  });

  return new Promise<void>((resolve) => {
    let killer: NodeJS.Timeout | undefined;
    const stopAll = (ms: number) => {
      const workers = live();
      if (killer) clearTimeout(killer);
      killer = setTimeout(() => workers.forEach((w) => w.process.kill('SIGKILL')), ms + 5000).unref();
      if (shuttingDown) {
        // A stop after a graceful stop: the shorter grace wins.
        for (const w of workers) send(w, { shelfmark: 'shutdown', graceMs: ms });
        return;
      }
      shuttingDown = true;
      // Once the last worker has closed its copy, the port refuses connections instead of
      // queueing them for nobody.
      kept?.close();
      for (const timer of delayed) clearTimeout(timer);
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
        send(w, { shelfmark: 'shutdown', graceMs: ms });
      }
    };
    let stopping = false; // TERM/INT seen (a second one, e.g. Ctrl-C twice, changes nothing)
    handleServiceSignals(() => errorLog, {
      stop(signal) {
        if (stopping) return;
        stopping = true;
        logShutdown(errorLog, signal);
        stopAll(graceMs);
      },
      gracefulStop(signal) {
        if (shuttingDown) return;
        logGracefulStop(errorLog, signal);
        stopAll(gracefulMs);
      },
      gracefulRestart() {
        if (shuttingDown) return;
        logGracefulRestart(errorLog);
        void errorLog.sink.reopen(); // never rejects: the sink reports open errors itself
        started();
        generation++;
        status.restarted();
        // N new workers start now: replacements still waiting for their delay are not needed,
        // and a restart asked for by hand (after fixing the code) starts without one.
        for (const timer of delayed) clearTimeout(timer);
        delayed.clear();
        cannotStart = 0;
        toRetire = live().filter((w) => !retiring.has(w.id));
        for (let i = 0; i < opts.workers; i++) fork();
      },
      reopenLogs() {
        void errorLog.sink.reopen(); // never rejects: the sink reports open errors itself
        for (const w of live()) send(w, { shelfmark: 'reopen' });
      },
    });
  });
}
