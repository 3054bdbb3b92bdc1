// Representations that change with the clock, not only with writes (ADR 0067): a loan becomes
// overdue at its due date, a kept copy's hold runs out at its expires_at. Such a representation
// names the instants at which what it shows changes; those already passed count for its
// Last-Modified (so old validators get the new body), and the earliest still ahead is its
// `freshUntil` (the representation cache does not serve it from then on).

export interface ClockChanges {
  /** The latest of the instants at or before `now`: the shown state changed then. */
  readonly changedAt: Date | null;
  /** The earliest of the instants at or after `now`: the shown state may change then. */
  readonly freshUntil: Date | undefined;
}

/**
 * Splits the instants at `now`. An instant equal to `now` counts on both sides: whichever way
 * the comparison that shows the state goes (`<` for overdue, `<=` for a hold's expiry), the
 * Last-Modified is not too early and the cached rendering is not served again.
 */
export function clockChanges(instants: Iterable<Date | null | undefined>, now: Date): ClockChanges {
  const at = now.getTime();
  let changed: number | undefined;
  let fresh: number | undefined;
  for (const instant of instants) {
    if (!instant) continue;
    const t = instant.getTime();
    if (t <= at && (changed === undefined || t > changed)) changed = t;
    if (t >= at && (fresh === undefined || t < fresh)) fresh = t;
  }
  return {
    changedAt: changed === undefined ? null : new Date(changed),
    freshUntil: fresh === undefined ? undefined : new Date(fresh),
  };
}

/** A Representation's `freshUntil` field: absent when nothing shown changes with the clock. */
export function freshUntilField(freshUntil: Date | null | undefined): { freshUntil?: Date } {
  return freshUntil ? { freshUntil } : {};
}

/** The earliest of some instants as a Representation's `freshUntil` field (copies kept for holds). */
export function earliestFreshUntil(instants: Iterable<Date | null | undefined>): { freshUntil?: Date } {
  let earliest: Date | undefined;
  for (const t of instants) if (t && (earliest === undefined || t < earliest)) earliest = t;
  return freshUntilField(earliest);
}
