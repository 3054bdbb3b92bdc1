// `shelfmark serve`: prepare the database once, then serve — in this process (--workers 0) or
// under the supervisor with N worker processes (default 1), which replaces a worker that dies.
import cluster from 'node:cluster';
import type { Config } from '../config/index.ts';
import {
  createErrorLog,
  createLogSink,
  logGracefulRestart,
  logGracefulStop,
  logShutdown,
  logStarted,
  ProcessScoreboard,
} from '../logging/index.ts';
import { prepareDatabase, SERVER_VERSION, startServer } from '../main.ts';
import { DEMO_ACCOUNTS } from '../catalogue/demo/index.ts';
import { handleServiceSignals } from './signals.ts';
import { GRACEFUL_MS, runSupervisor } from './supervisor.ts';
import { reportToSupervisor } from './status-ipc.ts';

const GRACE_MS = 10_000;

/** Printed once the socket listens (by each worker under the supervisor), so it can mean "ready". */
function readyLine(config: Config, port: number): string {
  const who = cluster.isWorker ? `, worker ${process.pid}` : '';
  return `Shelfmark is serving ${config.baseUrl}/ (listening on ${config.host}:${port}${who})\n`;
}

function banner(config: Config, demoLoaded: boolean): string {
  const lines: string[] = [];
  if (demoLoaded) lines.push('Loaded the demo catalogue into the empty database.');
  if (config.demo)
    lines.push(
      'Demo accounts (password = username): ' +
        DEMO_ACCOUNTS.map((a) => `${a.username} (${a.role})`).join(', '),
    );
  lines.push(`Database: ${config.databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
  lines.push(`Logs: ${config.accessLog} and ${config.errorLog}  (tail -f to follow)`);
  return lines.join('\n') + '\n';
}

export async function serveCommand(config: Config): Promise<number> {
  if (cluster.isPrimary) {
    const prepared = await prepareDatabase(config);
    process.stdout.write(banner(config, prepared.demo?.loaded ?? false));
  }
  if (config.workers > 0) {
    await runSupervisor({
      workers: config.workers,
      errorLog: () => createErrorLog(createLogSink(config.errorLog, 'stderr'), { level: config.logLevel }),
      startWorker: async () => {
        // /server-status: this worker's counts go to the supervisor, which has everyone's.
        const scoreboard = new ProcessScoreboard();
        const channel = reportToSupervisor(scoreboard);
        const running = await startServer(config, { scoreboard, serverStatus: () => channel.request() });
        process.stdout.write(readyLine(config, running.address.port));
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

async function serveInProcess(config: Config): Promise<number> {
  const running = await startServer(config);
  process.stdout.write(readyLine(config, running.address.port));
  logStarted(running.errorLog, SERVER_VERSION, process.argv.slice(1).join(' '));
  // Whatever ends the process, no queued log line is lost.
  process.on('exit', () => running.flushLogsSync());
  await new Promise<void>((resolve) => {
    let stopping: number | undefined;
    const stop = (graceMs: number) => {
      if (stopping !== undefined && stopping <= graceMs) return;
      // A second, shorter stop (TERM after WINCH) ends what still runs after its grace.
      if (stopping !== undefined) return void setTimeout(() => process.exit(0), graceMs).unref();
      stopping = graceMs;
      void running.stop(graceMs).then(resolve, resolve);
    };
    handleServiceSignals(() => running.errorLog, {
      stop(signal) {
        logShutdown(running.errorLog, signal);
        stop(GRACE_MS);
      },
      gracefulStop(signal) {
        if (stopping !== undefined) return;
        logGracefulStop(running.errorLog, signal);
        stop(GRACEFUL_MS);
      },
      // One process has no workers to replace: a graceful restart reopens the logs.
      gracefulRestart() {
        if (stopping !== undefined) return;
        logGracefulRestart(running.errorLog);
        void running.reopenLogs();
        logStarted(running.errorLog, SERVER_VERSION, process.argv.slice(1).join(' '));
      },
      reopenLogs: () => void running.reopenLogs(),
    });
  });
  return 0;
}
