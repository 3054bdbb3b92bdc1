// Compare-and-set for the stores' replace and delete (ADR 0021). A PUT or DELETE checks its
// preconditions against the row it loaded, then writes only if that row's `updated_at` is still
// the one it loaded (`UPDATE … WHERE id = ? AND updated_at = ?`). Another process that wrote in
// between makes the UPDATE match nothing: ChangedMeanwhileError, and nothing is written.
// For this to be sound `updated_at` must change on every write, even two in the same
// millisecond or on a machine whose clock is behind: nextUpdatedAt() never repeats a value.

/** What the caller saw: the `updatedAt` of the record it checked its preconditions against. */
export interface WriteExpectation {
  readonly expectedUpdatedAt?: Date;
}

/** The row was written (or deleted) by someone else after the caller loaded it. */
export class ChangedMeanwhileError extends Error {
  constructor(what: string) {
    super(`${what} was changed by another write since it was loaded`);
    this.name = 'ChangedMeanwhileError';
  }
}

/**
 * The next `updated_at` of a row: now, but at least one millisecond after the previous value
 * (ISO text of fixed width, so text order is time order; ADR 0041).
 */
export function nextUpdatedAt(now: string, previous: string): string {
  if (now > previous) return now;
  const after = Date.parse(previous) + 1;
  return Number.isFinite(after) ? new Date(after).toISOString() : now;
}

/** The expectation as the stored text, or undefined when the caller has none. */
export function expectedText(expectation: WriteExpectation | undefined): string | undefined {
  return expectation?.expectedUpdatedAt?.toISOString();
}

/**
 * Runs a store's compare-and-set write. With an expectation, a ChangedMeanwhileError reaches
 * the caller (it checked preconditions against a state that is gone). Without one the caller
 * asked for "last write wins": the write is tried again on the new state (a few times).
 */
export async function compareAndSet<T>(expected: string | undefined, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof ChangedMeanwhileError) || expected !== undefined || attempt >= 5) throw error;
    }
  }
}
