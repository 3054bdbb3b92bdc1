// `shelfmark serve`: prepare the database once, then serve — in this process (--workers 0) or
// under the supervisor with N worker processes (default 1), which replaces a worker that dies.
// The application is loaded by the processes that run it (load-app.ts), never by the
// supervisor: one that cannot load or start it logs why and exits CANNOT_START, and the
// supervisor tries again later (boot.ts, docs/decisions/0017-start-up-failures.md).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import cluster from 'node:cluster';
import type { Config } from '../config/index.ts';
import { SERVER_VERSION } from '../config/version.ts';
import {
  createErrorLog,
  createLogSink,
  logGracefulRestart,
  logGracefulStop,
  logShutdown,
  logStarted,
  ProcessScoreboard,
  type ErrorLog,
} from '../logging/index.ts';
import { CANNOT_START, logCannotStart, startDelayMs } from './boot.ts';
import { loadApplication, type Application } from './load-app.ts';
import { serveStartFailure } from './load-failure.ts';
import { handleServiceSignals } from './signals.ts';
import { GRACEFUL_MS, runSupervisor } from './supervisor.ts';
import { reportToSupervisor } from './status-ipc.ts';

const GRACE_MS = 10_000;
/** Set in the environment of the worker the supervisor forks to prepare the database. */
const PREPARE_ENV = 'SHELFMARK_PREPARE_ONLY';

/** Printed once the socket listens (by each worker under the supervisor), so it can mean "ready". */
function readyLine(config: Config, port: number): string {
  const who = cluster.isWorker ? `, worker ${process.pid}` : '';
  return `Shelfmark is serving ${config.baseUrl}/ (listening on ${config.host}:${port}${who})\n`;
}

function banner(config: Config, app: Application, demoLoaded: boolean): string {
  const lines: string[] = [];
  if (demoLoaded) lines.push('Loaded the demo catalogue into the empty database.');
  if (config.demo)
    lines.push(
      'Demo accounts (password = username): ' +
        app.demoAccounts.map((a) => `${a.username} (${a.role})`).join(', '),
    );
  lines.push(`Database: ${config.databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
  lines.push(`Logs: ${config.accessLog} and ${config.errorLog}  (tail -f to follow)`);
  return lines.join('\n') + '\n';
}

const openErrorLog = (config: Config): ErrorLog =>
  createErrorLog(createLogSink(config.errorLog, 'stderr'), { level: config.logLevel });

/** Loads the application, migrates, loads the demo into an empty database, prints the banner. */
async function prepare(config: Config): Promise<Application> {
  const app = await loadApplication();
  const prepared = await app.prepareDatabase(config);
  process.stdout.write(banner(config, app, prepared.demo?.loaded ?? false));
  return app;
}

/**
 * In the supervisor: the database is prepared by a worker of its own (the supervisor never loads
 * the application), again after a growing delay until it succeeds.
 */
async function prepareInWorker(config: Config): Promise<void> {
  let errorLog: ErrorLog | undefined;
  for (let failures = 1; ; failures++) {
    const code = await new Promise<number | null>((resolve) =>
      cluster.fork({ [PREPARE_ENV]: '1' }).once('exit', (status) => resolve(status)),
    );
    if (code === 0) return;
    errorLog ??= openErrorLog(config);
    const delay = startDelayMs(failures);
    errorLog.log(
      'error',
      'mpm_cluster',
      `the application could not be prepared (exit status ${code}): trying again in ${delay / 1000} s`,
    );
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

export async function serveCommand(config: Config): Promise<number> {
  if (cluster.isWorker && process.env[PREPARE_ENV]) {
    // A worker stays connected to the supervisor (and alive) until it exits.
    try {
      await prepare(config);
    } catch (err) {
      logCannotStart(openErrorLog(config), err, config.errorLog);
      process.exit(CANNOT_START);
    }
    process.exit(0);
  }
  if (config.workers > 0) {
    if (cluster.isPrimary) {
      // node:cluster fixes its scheduling policy at the first fork, which is this preparing
      // worker's: workers accept their own connections (ADR 0013), so set it first.
      cluster.schedulingPolicy = cluster.SCHED_NONE;
      await prepareInWorker(config);
    }
    await runSupervisor({
      workers: config.workers,
      errorLog: () => openErrorLog(config),
      errorLogPath: config.errorLog,
      // The supervisor binds HOST:PORT once and keeps it while workers come and go (ADR 0087).
      listen: { host: config.host, port: config.port },
      startWorker: async (inheritedFd) => {
        const app = await loadApplication();
        // /server-status: this worker's counts go to the supervisor, which has everyone's.
        const scoreboard = new ProcessScoreboard();
        const channel = reportToSupervisor(scoreboard);
        const running = await app.startServer(config, {
          scoreboard,
          serverStatus: () => channel.request(),
          ...(inheritedFd !== undefined && { inheritedFd }),
        });
        process.stdout.write(readyLine(config, running.address.port));
        reportCacheStatsOnSignal(running.representationCache);
        return {
          errorLog: running.errorLog,
          reopenLogs: () => running.reopenLogs(),
          flushLogsSync: () => running.flushLogsSync(),
          async stop(graceMs: number) {
            await running.stop(graceMs);
            await channel.final();
          },
        };
      },
      serverVersion: SERVER_VERSION,
      commandLine: process.argv.slice(1).join(' '),
      graceMs: GRACE_MS,
      gracefulMs: GRACEFUL_MS,
    });
    return 0;
  }
  return serveInProcess(config);
}

/** Serves until a signal stops it; `stop` ends the server within the grace period given. */
function untilStopped(
  errorLog: ErrorLog,
  stopServer: (graceMs: number) => Promise<void>,
  gracefulRestart: () => void,
  reopenLogs: () => void,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping: number | undefined;
    const stop = (graceMs: number) => {
      if (stopping !== undefined && stopping <= graceMs) return;
      // A second, shorter stop (TERM after WINCH) ends what still runs after its grace.
      if (stopping !== undefined) return void setTimeout(() => process.exit(0), graceMs).unref();
      stopping = graceMs;
      void stopServer(graceMs).then(resolve, resolve);
    };
    handleServiceSignals(() => errorLog, {
      stop(signal) {
        logShutdown(errorLog, signal);
        stop(GRACE_MS);
      },
      gracefulStop(signal) {
        if (stopping !== undefined) return;
        logGracefulStop(errorLog, signal);
        stop(GRACEFUL_MS);
      },
      // One process has no workers to replace: a graceful restart reopens the logs.
      gracefulRestart() {
        if (stopping !== undefined) return;
        logGracefulRestart(errorLog);
        gracefulRestart();
      },
      reopenLogs,
    });
  });
}

/**
 * For `npm run bench -- --mixed` only: with SHELFMARK_BENCH_STATS_DIR set, SIGUSR2 makes this
 * process write its representation cache's counts (hits, misses) to <dir>/<pid>.json, so the
 * benchmark can take a hit rate over its measured window. Without the variable, nothing is done
 * (and SIGUSR2 keeps Node's default).
 */
function reportCacheStatsOnSignal(cache: { stats(): object }): void {
  const dir = process.env.SHELFMARK_BENCH_STATS_DIR;
  if (!dir) return;
  process.on('SIGUSR2', () => {
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(cache.stats()));
  });
}

async function serveInProcess(config: Config): Promise<number> {
  const commandLine = process.argv.slice(1).join(' ');
  let running: Awaited<ReturnType<Application['startServer']>>;
  try {
    const app = await prepare(config);
    running = await app.startServer(config);
  } catch (err) {
    const errorLog = openErrorLog(config);
    logCannotStart(errorLog, err, config.errorLog);
    // Production: nothing to serve (a service manager restarts it). Development: show it.
    if (!config.displayErrors) return CANNOT_START;
    const failing = await serveStartFailure(config, err, errorLog);
    process.stdout.write(readyLine(config, failing.port));
    logStarted(errorLog, SERVER_VERSION, commandLine);
    await untilStopped(
      errorLog,
      () => failing.stop().then(() => errorLog.sink.close()),
      () => {},
      () => {
        void errorLog.sink.reopen();
      },
    );
    return CANNOT_START;
  }
  const server = running;
  process.stdout.write(readyLine(config, server.address.port));
  reportCacheStatsOnSignal(server.representationCache);
  logStarted(server.errorLog, SERVER_VERSION, commandLine);
  // Whatever ends the process, no queued log line is lost.
  process.on('exit', () => server.flushLogsSync());
  await untilStopped(
    server.errorLog,
    (graceMs) => server.stop(graceMs),
    () => {
      void server.reopenLogs();
      logStarted(server.errorLog, SERVER_VERSION, commandLine);
    },
    () => void server.reopenLogs(),
  );
  return 0;
}
