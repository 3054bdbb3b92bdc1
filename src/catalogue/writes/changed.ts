// PUT/DELETE whose compare-and-set lost: another process (worker, machine) wrote the resource
// after this request loaded it and checked its preconditions (ADR 0021). The whole flow runs
// again on the new state — load, `ctx.checkPreconditions`, write — so a stale If-Match (or form
// `_version`) now gets 412, while a client that sent no precondition gets "last write wins".
import { ChangedMeanwhileError } from '../shared/compare-and-set.ts';
import { HttpError } from '../shared/errors.ts';

/** How often the flow is run before giving up with 412 (each loss means someone else won). */
const ATTEMPTS = 3;

export async function againWhenChanged<T>(flow: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await flow();
    } catch (error) {
      if (!(error instanceof ChangedMeanwhileError)) throw error;
      if (attempt >= ATTEMPTS) {
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
