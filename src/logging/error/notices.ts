// The notices Apache writes at start, stop and when a child dies, with the same AH numbers so
// operators' greps and alerts keep working.
import os from 'node:os';
import type { ErrorLog } from './error-log.ts';

const MPM = 'mpm_cluster';

export function logStarted(errorLog: ErrorLog, serverVersion: string, commandLine: string): void {
  errorLog.log('notice', MPM, `AH00163: ${serverVersion} configured -- resuming normal operations`);
  errorLog.log('notice', 'core', `AH00094: Command line: '${commandLine}'`);
}

export function logShutdown(errorLog: ErrorLog, signal: string): void {
  errorLog.log('notice', MPM, `AH00169: caught ${signal}, shutting down`);
}

// prefork's numbers, like AH00169 above (the event MPM numbers the same notices AH00492/AH00493).
export function logGracefulStop(errorLog: ErrorLog, signal: string): void {
  errorLog.log('notice', MPM, `AH00170: caught ${signal}, shutting down gracefully`);
}

export function logGracefulRestart(errorLog: ErrorLog): void {
  errorLog.log('notice', MPM, 'AH00171: Graceful restart requested, doing restart');
}

/** A signal Shelfmark gives no meaning: said in the log, never a silent death. */
export function logIgnoredSignal(errorLog: ErrorLog, signal: string, why: string): void {
  errorLog.log('notice', MPM, `caught ${signal}: ${why}`);
}

// strsignal(3) texts for the signals a worker can die of.
const SIGNAL_TEXT: Record<string, string> = {
  SIGHUP: 'Hangup',
  SIGINT: 'Interrupt',
  SIGQUIT: 'Quit',
  SIGILL: 'Illegal instruction',
  SIGTRAP: 'Trace/breakpoint trap',
  SIGABRT: 'Aborted',
  SIGBUS: 'Bus error',
  SIGFPE: 'Floating point exception',
  SIGKILL: 'Killed',
  SIGSEGV: 'Segmentation fault',
  SIGPIPE: 'Broken pipe',
  SIGTERM: 'Terminated',
};

/** `AH00052: child pid 1234 exit signal Aborted (6)` or `… exit status 1`. */
export function childExitMessage(pid: number, code: number | null, signal: string | null): string {
  if (signal) {
    const num = (os.constants.signals as Record<string, number>)[signal] ?? 0;
    return `AH00052: child pid ${pid} exit signal ${SIGNAL_TEXT[signal] ?? signal} (${num})`;
  }
  return `AH00052: child pid ${pid} exit status ${code ?? 0}`;
}

export function logChildExit(
  errorLog: ErrorLog,
  pid: number,
  code: number | null,
  signal: string | null,
): void {
  errorLog.log('notice', 'core', childExitMessage(pid, code, signal));
}
