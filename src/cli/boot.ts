// When the application cannot start (docs/decisions/0017-start-up-failures.md): a syntax error
// or a missing module in its code, or a failure while it starts (the database cannot be
// prepared, the port is taken). The process logs the error once — file, line and message, like
// PHP's `PHP Parse error: … in FILE on line N` — and exits with CANNOT_START; the supervisor
// then starts the next attempt after a delay that doubles up to a minute, never in a loop.
import { describeError, errorLogMessage, type ErrorLog } from '../logging/index.ts';

/** Exit status of a process that could not load or start the application (sysexits' EX_CONFIG). */
export const CANNOT_START = 78;

/** 1 s, 2 s, 4 s … at most 60 s, for the n-th failure in a row (n ≥ 1). */
export function startDelayMs(failures: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, failures - 1));
}

/**
 * One `crit` entry naming the file and line. When the error log is a file, one line on stderr
 * too, so whoever started the server sees why nothing listens.
 */
export function logCannotStart(errorLog: ErrorLog, error: unknown, errorLogPath: string): void {
  const described = describeError(error);
  errorLog.log('crit', 'shelfmark', 'Cannot start: ' + errorLogMessage(described));
  errorLog.sink.flushSync();
  if (errorLogPath === '-') return;
  const where = described.file === undefined ? '' : ` in ${described.file} on line ${described.line}`;
  process.stderr.write(
    `shelfmark[${process.pid}]: cannot start: ${described.className}: ${described.message}${where} (${errorLogPath})\n`,
  );
}
