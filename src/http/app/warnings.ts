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
