// `shelfmark serve`: prepare the database once, then serve — in this process (--workers 0) or
// under the supervisor with N worker processes (default 1), which replaces a worker that dies.
import cluster from 'node:cluster';
import type { Config } from '../config/index.ts';
import { createErrorLog, createLogSink, logShutdown, logStarted } from '../logging/index.ts';
import { prepareDatabase, resolveSecret, SERVER_VERSION, startServer } from '../main.ts';
import { DEMO_ACCOUNTS } from '../catalogue/demo/index.ts';
import { runSupervisor } from './supervisor.ts';

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
    resolveSecret(config);
    const prepared = await prepareDatabase(config);
    process.stdout.write(banner(config, prepared.demo?.loaded ?? false));
  }
  if (config.workers > 0) {
    await runSupervisor({
      workers: config.workers,
      errorLog: () => createErrorLog(createLogSink(config.errorLog, 'stderr'), { level: config.logLevel }),
      startWorker: async () => {
        const running = await startServer(config);
        process.stdout.write(readyLine(config, running.address.port));
        return running;
      },
      serverVersion: SERVER_VERSION,
      commandLine: process.argv.slice(1).join(' '),
      graceMs: GRACE_MS,
    });
    return 0;
  }
  return serveInProcess(config);
}

async function serveInProcess(config: Config): Promise<number> {
  const running = await startServer(config);
  process.stdout.write(readyLine(config, running.address.port));
  logStarted(running.errorLog, SERVER_VERSION, process.argv.slice(1).join(' '));
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logShutdown(running.errorLog, signal);
      void running.stop(GRACE_MS).then(resolve, resolve);
    };
    // `on`, not `once`: the same signal often comes twice (Ctrl-C reaches the whole process
    // group, and `node --watch` passes it on to its child), and a second one with no listener
    // would kill the process before it has flushed its logs.
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    process.on('SIGHUP', () => void running.reopenLogs());
    // Whatever ends the process, no queued log line is lost (batches wait up to 50 ms).
    process.on('exit', () => running.flushLogsSync());
  });
  return 0;
}
