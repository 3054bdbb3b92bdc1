// From whatever was thrown to the problem object and the headers to send with it. This is also
// the one place a storage error becomes an HTTP answer (ADR 0046): a database that is busy or
// unavailable is a 503 with Retry-After and a readable body, reported but not a 500; other
// storage errors that reach here unhandled are bugs and stay 500. Only the error classes are
// imported: no SQL.
import { BusyError, TransientStorageError } from '../../storage/errors.ts';
import { boundedDetail } from './bounded-detail.ts';
import { HttpError } from './http-error.ts';
import { codeForStatus, ERROR_CODES, type ErrorCode } from './codes.ts';
import { exceptionDetails } from './exception-details.ts';
import type { Problem } from './problem.ts';

export interface ProblemOutcome {
  readonly problem: Problem;
  readonly headers: Readonly<Record<string, string>>;
  /** An unexpected error: reported, and its body empty unless displayErrors. */
  readonly unexpected: boolean;
  /** Passed to reportError: every unexpected error, and a database that is busy or down. */
  readonly report: boolean;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

/** A problem of type about:blank: the code's title and status, unless `more` says otherwise. */
function problemOf(code: ErrorCode, instance: string, more: Partial<Problem>): Problem {
  const { title, status } = ERROR_CODES[code];
  return { type: 'about:blank', title, status, instance, code, ...more };
}

export function toProblem(error: unknown, instance: string, displayErrors: boolean): ProblemOutcome {
  if (error instanceof HttpError) {
    const problem = problemOf(error.code, instance, {
      title: error.title,
      ...(error.detail !== undefined && { detail: error.detail }),
      ...error.extensions,
      ...(error.status === 500 && displayErrors && { exception: exceptionDetails(error.cause ?? error) }),
      ...(error.localDetail !== undefined && { localDetail: error.localDetail }),
    });
    // A deliberate 503 (with Retry-After) is meant for the client; a 500 is a failure.
    const unexpected = error.status === 500;
    return { problem, headers: error.headers, unexpected, report: unexpected };
  }
  if (error instanceof TransientStorageError) {
    const busy = error instanceof BusyError;
    const problem = problemOf(busy ? 'SHELFMARK_DATABASE_BUSY' : 'SHELFMARK_DATABASE_UNAVAILABLE', instance, {
      detail: busy
        ? 'The library is busy; please try again in a moment.'
        : 'The library’s database cannot be reached at the moment; please try again shortly.',
    });
    const headers = { 'Retry-After': String(error.retryAfterSeconds) };
    return { problem, headers, unexpected: false, report: true };
  }
  // Fastify's own client errors (body too large, bad JSON, unsupported media type) carry a
  // statusCode; their messages describe the request, not the server, so they are shown —
  // bounded like every detail (bounded-detail.ts): the message may quote the request.
  const status = statusOf(error);
  if (status !== undefined && status < 500) {
    const detail = error instanceof Error ? boundedDetail(error.message) : undefined;
    const problem = problemOf(codeForStatus(status), instance, { status, detail });
    return { problem, headers: {}, unexpected: false, report: false };
  }
  const code = status === undefined ? 'SHELFMARK_INTERNAL_ERROR' : codeForStatus(status);
  const problem = problemOf(code, instance, {
    status: status ?? 500,
    ...(displayErrors && { exception: exceptionDetails(error) }),
  });
  return { problem, headers: {}, unexpected: true, report: true };
}
