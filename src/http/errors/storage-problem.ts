// The one place a storage error becomes an HTTP answer. A database that is busy (a lock held
// too long, a deadlock) or unavailable (down, unreachable, read-only) is a 503 with
// Retry-After and a problem body the client can read, on every route; it is reported (the
// error log summarises repeats, ADR 0046) but is not a 500. Other storage errors that reach
// here unhandled are bugs and stay 500. Only the error classes are imported: no SQL.
import { BusyError, TransientStorageError } from '../../storage/errors.ts';
import { ERROR_CODES } from './codes.ts';
import type { Problem } from './problem.ts';
import type { ProblemOutcome } from './to-problem.ts';

export function storageProblem(error: unknown, instance: string): ProblemOutcome | undefined {
  if (!(error instanceof TransientStorageError)) return undefined;
  const busy = error instanceof BusyError;
  const code = busy ? 'SHELFMARK_DATABASE_BUSY' : 'SHELFMARK_DATABASE_UNAVAILABLE';
  const problem: Problem = {
    type: 'about:blank',
    title: ERROR_CODES[code].title,
    status: ERROR_CODES[code].status,
    detail: busy
      ? 'The library is busy; please try again in a moment.'
      : 'The library’s database cannot be reached at the moment; please try again shortly.',
    instance,
    code,
  };
  const headers = { 'Retry-After': String(error.retryAfterSeconds) };
  return { problem, headers, unexpected: false, report: true };
}
