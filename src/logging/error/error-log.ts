// The error log: only what went wrong, plus start/stop notices, in Apache 2.4's format.
import type { IncomingMessage } from 'node:http';
import type { LogSink } from '../sink/sink.ts';
import { rawHeaderValue } from '../access/record.ts';
import { formatErrorLine, levelRank, type Level } from './format.ts';
import { describeError, errorLogMessage, type DescribeOptions } from './describe.ts';
import { createRepeats } from './repeats.ts';
import { currentRequest } from './request-scope.ts';

export interface ErrorContext {
  /** `IP:PORT` of the connection. */
  readonly client?: string | undefined;
  /** Referer (binary string). */
  readonly referer?: string | undefined;
  /** The message holds raw request bytes (one char per byte) rather than text. */
  readonly binary?: boolean | undefined;
  /** httpd's `(errno)text: ` before the client, e.g. `(22)Invalid argument`. */
  readonly osError?: string | undefined;
}

export interface ErrorLog {
  readonly level: Level;
  /** Whether an entry at `level` would be written (notice always is). */
  enabled(level: Level): boolean;
  log(level: Level, module: string, message: string, context?: ErrorContext): void;
  /** ONE `[shelfmark:error]` entry for an uncaught error while serving `raw`. */
  requestError(err: unknown, raw?: IncomingMessage): void;
  /** An application warning (`[shelfmark:warn]`), optionally tied to a request. */
  warning(message: string, raw?: IncomingMessage): void;
  /**
   * An error that may repeat for every request (the database is down or locked): the first
   * occurrence of `key` in an interval is written in full like requestError, the rest as one
   * `... repeated N times in the last 10 s: KEY` entry per interval.
   */
  repeatedError(key: string, level: Level, err: unknown, raw?: IncomingMessage): void;
  /** Writes the pending "repeated" summaries now (before the sink is closed). */
  flushRepeats(): void;
  readonly sink: LogSink;
}

export interface ErrorLogOptions {
  /** LogLevel; default `warn`. */
  readonly level?: Level;
  /** Module name for the application's own entries; default `shelfmark`. */
  readonly module?: string;
  readonly describe?: DescribeOptions;
  /** Interval of the "repeated N times" summaries in ms; default 10 s. */
  readonly repeatIntervalMs?: number;
}

const unmap = (a: string | undefined): string => (a?.startsWith('::ffff:') ? a.slice(7) : (a ?? '-'));

/** `[client IP:PORT]` and `referer` context of a request. */
export function requestContext(raw: IncomingMessage): ErrorContext {
  const s = raw.socket;
  const referer = rawHeaderValue(raw.rawHeaders, 'referer');
  return { client: `${unmap(s?.remoteAddress)}:${s?.remotePort ?? 0}`, referer };
}

export function createErrorLog(sink: LogSink, options: ErrorLogOptions = {}): ErrorLog {
  const level = options.level ?? 'warn';
  const threshold = levelRank(level);
  const module = options.module ?? 'shelfmark';
  const enabled = (l: Level) => l === 'notice' || levelRank(l) <= threshold;
  const log = (l: Level, mod: string, message: string, context?: ErrorContext) => {
    if (!enabled(l)) return;
    sink.write(
      formatErrorLine({
        module: mod,
        level: l,
        message,
        osError: context?.osError,
        client: context?.client,
        referer: context?.referer,
        binary: context?.binary,
      }),
    );
  };
  const repeats = createRepeats((l, message) => log(l, module, message), options.repeatIntervalMs);
  return {
    level,
    enabled,
    log,
    repeatedError(key, l, err, raw) {
      if (!enabled(l)) return;
      // The first entry keeps the request's client; the summary is about many clients.
      repeats.occur(key, l, () =>
        log(l, module, errorLogMessage(describeError(err, options.describe)), raw && requestContext(raw)),
      );
    },
    flushRepeats: () => repeats.flush(),
    requestError(err, raw) {
      log('error', module, errorLogMessage(describeError(err, options.describe)), raw && requestContext(raw));
    },
    warning(message, raw) {
      log('warn', module, message, raw && requestContext(raw));
    },
    sink,
  };
}

/**
 * `DeprecationWarning [DEP0005]: Buffer() is deprecated … in /app/src/x.ts on line 12`: a Node
 * process warning as PHP writes its warnings, with the file and line of the first stack frame
 * in the project's code (else the first one in a file) when Node's stack has one.
 */
export function processWarningMessage(w: Error & { code?: string }): string {
  const { file, line } = describeError(w);
  const where = file === undefined ? '' : ` in ${file} on line ${line}`;
  return `${w.name}${w.code ? ` [${w.code}]` : ''}: ${w.message}${where}`;
}

/**
 * Sends Node's process warnings (deprecations, MaxListeners …) to the error log at `warn`; one
 * raised while a request's code runs (request-scope.ts) names that request's client and Referer.
 */
export function logProcessWarnings(errorLog: ErrorLog): () => void {
  const onWarning = (w: Error & { code?: string }) => {
    const raw = currentRequest();
    errorLog.log('warn', 'node', processWarningMessage(w), raw && requestContext(raw));
  };
  process.on('warning', onWarning);
  return () => void process.off('warning', onWarning);
}
