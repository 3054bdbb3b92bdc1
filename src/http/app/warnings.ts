// The resource layer's own warnings (`[shelfmark:warn]`, docs/errors.md "Warnings"): things that
// went right this time but need an operator's eye. Each carries the request's client and
// Referer, like httpd's entries for a request.
import type { IncomingMessage } from 'node:http';
import type { ErrorLog } from '../../logging/index.ts';
import type { LimitReached } from '../auth/index.ts';

/** A failed log-in filled a counter of the log-in limit: the next attempts get 429. */
export function warnLimitReached(
  errorLog: ErrorLog | undefined,
  raw: IncomingMessage,
  user: string,
  limit: LimitReached,
): void {
  const whose = limit.scope === 'account' ? `user ${user} from this address` : 'this address (any user name)';
  errorLog?.warning(
    `log-in limit reached for ${whose}: further attempts refused for ${limit.retryAfterSeconds} s`,
    raw,
  );
}

/** What a body's size must reach to be "near" its limit. */
export const NEAR_LIMIT = 0.9;

/** A request body of at least 90 % of the limit was accepted: the next larger one gets 413. */
export function warnBodyNearLimit(
  errorLog: ErrorLog | undefined,
  raw: IncomingMessage,
  size: number,
  limit: number,
): void {
  const percent = Math.floor((size / limit) * 100);
  errorLog?.warning(
    `request body of ${size} bytes is ${percent} % of the limit of ${limit} bytes: ${requestLine(raw)}`,
    raw,
  );
}

/** A response took longer than the threshold (ms). */
export function warnSlowRequest(
  errorLog: ErrorLog | undefined,
  raw: IncomingMessage,
  target: string,
  elapsedMs: number,
  thresholdMs: number,
): void {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  errorLog?.warning(
    `slow request: ${seconds(elapsedMs)} s (threshold ${seconds(thresholdMs)} s): ${requestLine(raw, target)}`,
    raw,
  );
}

/** `METHOD target` as the client sent it (the target is the client's, not the rewritten one). */
function requestLine(raw: IncomingMessage, target?: string): string {
  const url = target ?? (raw as IncomingMessage & { originalUrl?: string }).originalUrl ?? raw.url ?? '';
  // The target is a binary string (one char per byte); as text its non-ASCII bytes would be
  // UTF-8-encoded twice. Percent-encoding them keeps the entry true to the bytes sent.
  return `${raw.method ?? '-'} ${url.replace(/[^\x21-\x7e]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))}`;
}
