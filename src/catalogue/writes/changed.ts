// PUT/DELETE whose compare-and-set lost: another process (worker, machine) wrote the resource
// after this request loaded it and checked its preconditions (ADR 0021). The whole flow runs
// again on the new state — load, `ctx.checkPreconditions`, write — so a stale If-Match (or form
// `_version`) now gets 412, while a client that sent no precondition gets "last write wins".
// A write the database rolled back to resolve a deadlock or serialisation failure with another
// transaction (PostgreSQL) runs again the same way, a few times, before it answers 503
// (ADR 0055: the catalogue's own writers take their locks in one order, so this is a safety net
// for writers outside it, such as an operator's SQL).
import { isTransactionConflict } from '../../storage/index.ts';
import { ChangedMeanwhileError, HttpError } from '../shared/index.ts';

/** How often the flow is run before giving up with 412 (each loss means someone else won). */
const ATTEMPTS = 3;
/** How often a flow rolled back by the database (deadlock, serialisation failure) is run. */
const CONFLICT_ATTEMPTS = 3;

export async function againWhenChanged<T>(flow: () => Promise<T>): Promise<T> {
  let lost = 0;
  let conflicts = 0;
  for (;;) {
    try {
      return await flow();
    } catch (error) {
      if (isTransactionConflict(error)) {
        if (++conflicts >= CONFLICT_ATTEMPTS) throw error;
        continue;
      }
      if (!(error instanceof ChangedMeanwhileError)) throw error;
      if (++lost >= ATTEMPTS) {
        throw new HttpError('SHELFMARK_PRECONDITION_FAILED', {
          detail: 'The resource was changed by another request meanwhile. Fetch it again.',
          localDetail: {
            de: 'Die Seite wurde inzwischen anderswo geändert. Laden Sie sie neu und versuchen Sie es noch einmal.',
            en: 'The page was changed elsewhere meanwhile. Reload it and try again.',
          },
        });
      }
    }
  }
}
