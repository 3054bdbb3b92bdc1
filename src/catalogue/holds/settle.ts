// The queue's one rule, as a pure function (ADR 0059): given a work's open holds, its free
// copies and a moment, what the queue looks like at that moment. A ready hold whose time ran out
// ends as `expired` at its `expires_at`, and its copy goes to the first waiting hold, which is
// then ready from that very moment (not from whenever someone next looks): so the outcome
// depends only on the stored rows and the moment asked about. Writes persist it (queue.ts) inside
// every transaction that touches the work; reads compute it for "now" without writing, and both
// agree. No timer process is needed.

export interface OpenHold {
  readonly id: number;
  readonly personId: number;
  readonly placedAt: string;
  readonly copyId: number | null;
  readonly readyAt: string | null;
  readonly expiresAt: string | null;
}

export interface FreeCopy {
  readonly id: number;
  /** Since when it is free (a copy free in the database: the moment of the settlement). */
  readonly since: string;
}

export interface SettledHold extends OpenHold {
  /** Set when the hold ran out by the moment asked about (always `expired`, at its expires_at). */
  readonly endedAt: string | null;
}

export interface Settlement {
  /** Every hold given, in queue order, as it is at the moment asked about. */
  readonly holds: readonly SettledHold[];
  /** The ids of the holds that changed (ended or became ready). */
  readonly changed: ReadonlySet<number>;
  /** The copies still free afterwards. */
  readonly free: readonly FreeCopy[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Queue order: first come (placed_at), then the lower id. */
export function queueOrder(a: { placedAt: string; id: number }, b: { placedAt: string; id: number }): number {
  return a.placedAt < b.placedAt ? -1 : a.placedAt > b.placedAt ? 1 : a.id - b.id;
}

const later = (a: string, b: string) => (a > b ? a : b);

export function settle(
  open: readonly OpenHold[],
  freeCopies: readonly FreeCopy[],
  now: string,
  holdDays: number,
): Settlement {
  const holds: SettledHold[] = [...open].sort(queueOrder).map((h) => ({ ...h, endedAt: null }));
  const free = [...freeCopies].sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id - b.id));
  const changed = new Set<number>();
  for (;;) {
    // Free copies go to the waiting holds, first come first served.
    for (let i = 0; i < holds.length && free.length > 0; i++) {
      const hold = holds[i]!;
      if (hold.endedAt !== null || hold.copyId !== null) continue;
      const copy = free.shift()!;
      const readyAt = later(copy.since, hold.placedAt);
      const expiresAt = new Date(Date.parse(readyAt) + holdDays * DAY_MS).toISOString();
      holds[i] = { ...hold, copyId: copy.id, readyAt, expiresAt };
      changed.add(hold.id);
    }
    // The earliest ready hold that ran out by `now` ends, and its copy is free from then on.
    let next = -1;
    for (let i = 0; i < holds.length; i++) {
      const h = holds[i]!;
      if (h.endedAt !== null || h.expiresAt === null || h.expiresAt > now) continue;
      const best = next < 0 ? undefined : holds[next]!;
      if (
        best === undefined ||
        h.expiresAt < best.expiresAt! ||
        (h.expiresAt === best.expiresAt && h.id < best.id)
      )
        next = i;
    }
    if (next < 0) break;
    const ended = holds[next]!;
    holds[next] = { ...ended, endedAt: ended.expiresAt };
    changed.add(ended.id);
    free.push({ id: ended.copyId!, since: ended.expiresAt! });
    free.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id - b.id));
  }
  return { holds, changed, free };
}

/** Position of each waiting hold (1 = next to get a copy); ready and ended holds have none. */
export function positions(holds: readonly SettledHold[]): Map<number, number> {
  const result = new Map<number, number>();
  let n = 0;
  for (const h of holds) if (h.endedAt === null && h.copyId === null) result.set(h.id, ++n);
  return result;
}
