// What a person has open at the library: loans not yet returned and holds not yet ended
// (ADR 0061). A person with either cannot be deleted (409): the loan would lose its borrower
// and the hold its member. The check runs inside the delete's transaction, after the change
// counter's lock (ADR 0055), so a borrow or hold committed meanwhile is seen, and none can be
// committed between the check and the delete. Holds count as they are at the moment asked
// about (ADR 0059, 0067): a ready hold that ran out is over, though no write has stored it yet.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { holdsAsOf } from '../holds/index.ts';
import { latestStamp } from '../shared/index.ts';

/** The moment holds are counted for, and how long a copy is kept (SHELFMARK_HOLD_DAYS). */
export interface LendingClock {
  /** ISO 8601 UTC. */
  readonly now: () => string;
  readonly holdDays: number;
}

export interface OpenLending {
  readonly loans: number;
  readonly holds: number;
  /** Latest borrow, return, hold placed, kept or ended of this person; null: none ever. */
  readonly lastChange: Date | null;
  /** When a hold of these works may end next without a write (ADR 0067); absent: none can. */
  readonly freshUntil?: Date;
}

/** Open loans and holds of a person as of the clock's moment, and when that last changed. */
export async function openLendingOf(
  db: Kysely<DB>,
  personId: number,
  clock: LendingClock,
): Promise<OpenLending> {
  const loans = await db
    .selectFrom('loans')
    .select((eb) => [
      eb.fn.countAll<string | number>().filterWhere('returned_at', 'is', null).as('open'),
      eb.fn.max('borrowed_at').as('borrowed'),
      eb.fn.max('returned_at').as('returned'),
    ])
    .where('person_id', '=', personId)
    .executeTakeFirst();
  // Each of the person's holds as its work's queue is now: its placed, kept and ended moments
  // count (settled ones too), and the earliest ready hold of those works to run out is when
  // what is open may change.
  const at = clock.now();
  const holds = await holdsAsOf(db, { personId }, at, clock.holdDays);
  const holdStamps = holds.items.flatMap((h) =>
    [h.placedAt, h.readyAt, h.endedAt].map((d) => d?.toISOString()),
  );
  const lastChange = latestStamp([loans?.borrowed, loans?.returned, ...holdStamps]);
  return {
    loans: Number(loans?.open ?? 0),
    holds: holds.items.filter((h) => h.status !== 'ended').length,
    lastChange,
    ...(holds.freshUntil && { freshUntil: holds.freshUntil }),
  };
}

/** Thrown by the person store's delete (inside its transaction): the person still borrows or waits. */
export class PersonHasLendingError extends Error {
  readonly loans: number;
  readonly holds: number;

  constructor(personId: number, open: OpenLending) {
    super(`person ${personId} has ${open.loans} open loan(s) and ${open.holds} open hold(s)`);
    this.name = 'PersonHasLendingError';
    this.loans = open.loans;
    this.holds = open.holds;
  }
}

/** The delete's guard: throws PersonHasLendingError while anything is open (as of now). */
export async function refuseWhileLending(
  trx: Kysely<DB>,
  personId: number,
  clock: LendingClock,
): Promise<void> {
  const open = await openLendingOf(trx, personId, clock);
  if (open.loans > 0 || open.holds > 0) throw new PersonHasLendingError(personId, open);
}
