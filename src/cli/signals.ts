// What signals mean to a running `shelfmark serve`, as to Apache httpd (apachectl -k …):
//   TERM, INT  stop: in-flight requests get the grace period (10 s), then the rest is closed
//   WINCH      graceful stop: stop accepting, let every in-flight request finish
//   USR1       graceful restart: new workers take over, the old ones finish their requests
//   HUP        reopen the log files (logrotate); httpd would restart, we only reopen
//   USR2       no meaning: logged and ignored (Node's default would kill without a word)
// Every one of them has a listener, which also keeps Node from opening its inspector on USR1
// (`npm run debug` opens it with --inspect from the start). See docs/decisions/0013-supervisor.md.
import tty from 'node:tty';
import { logIgnoredSignal, type ErrorLog } from '../logging/index.ts';

export interface SignalActions {
  stop(signal: 'SIGTERM' | 'SIGINT'): void;
  gracefulStop(signal: 'SIGWINCH'): void;
  gracefulRestart(): void;
  reopenLogs(): void;
}

/** Installs the serving process's signal handlers (the supervisor, or the one process of --workers 0). */
export function handleServiceSignals(errorLog: () => ErrorLog, actions: SignalActions): void {
  // `on`, not `once`: the same signal often comes twice (Ctrl-C reaches the whole process
  // group, and `node --watch` passes it on to its child), and a second one with no listener
  // would kill the process before it has flushed its logs.
  process.on('SIGTERM', () => actions.stop('SIGTERM'));
  process.on('SIGINT', () => actions.stop('SIGINT'));
  process.on('SIGHUP', () => actions.reopenLogs());
  process.on('SIGUSR1', () => actions.gracefulRestart());
  process.on('SIGWINCH', () => {
    // In a terminal's foreground the terminal sends WINCH on every window resize.
    if (tty.isatty(0)) return errorLog().log('info', 'mpm_cluster', 'SIGWINCH ignored: stdin is a terminal');
    actions.gracefulStop('SIGWINCH');
  });
  process.on('SIGUSR2', () =>
    logIgnoredSignal(
      errorLog(),
      'SIGUSR2',
      'no meaning, ignored (USR1 = graceful restart, WINCH = graceful stop, HUP = reopen logs, TERM = stop)',
    ),
  );
}

/**
 * In a worker: signals sent to the whole process group (a terminal's Ctrl-C and resizes,
 * `kill -USR1 -PGID`) are the supervisor's business; without a listener USR1 would open the
 * inspector in every worker and USR2 would kill them.
 */
export function ignoreGroupSignals(): void {
  for (const signal of ['SIGINT', 'SIGWINCH', 'SIGUSR1', 'SIGUSR2'] as const) process.on(signal, () => {});
}
