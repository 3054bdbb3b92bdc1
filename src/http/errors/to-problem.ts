// From whatever was thrown to the problem object and the headers to send with it.
import { boundedDetail } from './bounded-detail.ts';
import { HttpError } from './http-error.ts';
import { codeForStatus, ERROR_CODES } from './codes.ts';
import { exceptionDetails } from './exception-details.ts';
import type { Problem } from './problem.ts';
import { storageProblem } from './storage-problem.ts';

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

export function toProblem(error: unknown, instance: string, displayErrors: boolean): ProblemOutcome {
  if (error instanceof HttpError) {
    const problem: Problem = {
      type: 'about:blank',
      title: error.title,
      status: error.status,
      ...(error.detail !== undefined && { detail: error.detail }),
      instance,
      code: error.code,
      ...error.extensions,
      ...(error.status === 500 && displayErrors && { exception: exceptionDetails(error.cause ?? error) }),
      ...(error.localDetail !== undefined && { localDetail: error.localDetail }),
    };
    // A deliberate 503 (with Retry-After) is meant for the client; a 500 is a failure.
    const unexpected = error.status === 500;
    return { problem, headers: error.headers, unexpected, report: unexpected };
  }
  const transient = storageProblem(error, instance);
  if (transient) return transient;
  // Fastify's own client errors (body too large, bad JSON, unsupported media type) carry a
  // statusCode; their messages describe the request, not the server, so they are shown.
  const status = statusOf(error);
  if (status !== undefined && status < 500) {
    const code = codeForStatus(status);
    // Bounded like every detail (bounded-detail.ts): the message may quote the request.
    const detail = error instanceof Error ? boundedDetail(error.message) : undefined;
    const problem: Problem = {
      type: 'about:blank',
      title: ERROR_CODES[code].title,
      status,
      detail,
      instance,
      code,
    };
    return { problem, headers: {}, unexpected: false, report: false };
  }
  const code = status === undefined ? 'SHELFMARK_INTERNAL_ERROR' : codeForStatus(status);
  const problem: Problem = {
    type: 'about:blank',
    title: ERROR_CODES[code].title,
    status: status ?? 500,
    instance,
    code,
    ...(displayErrors && { exception: exceptionDetails(error) }),
  };
  return { problem, headers: {}, unexpected: true, report: true };
}
