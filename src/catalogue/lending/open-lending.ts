// What a person has open at the library: loans not yet returned and holds not yet ended
// (ADR 0061). A person with either cannot be deleted (409): the loan would lose its borrower
// and the hold its member. The check runs inside the delete's transaction, after the change
// counter's lock (ADR 0055), so a borrow or hold committed meanwhile is seen, and none can be
// committed between the check and the delete.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';

export interface OpenLending {
  readonly loans: number;
  readonly holds: number;
  /** Latest borrow, return, hold placed, kept or ended of this person; null: none ever. */
  readonly lastChange: Date | null;
}

/** Open loans and holds of a person, and when that last changed. */
export async function openLendingOf(db: Kysely<DB>, personId: number): Promise<OpenLending> {
  const loans = await db
    .selectFrom('loans')
    .select((eb) => [
      eb.fn.countAll<string | number>().filterWhere('returned_at', 'is', null).as('open'),
      eb.fn.max('borrowed_at').as('borrowed'),
      eb.fn.max('returned_at').as('returned'),
    ])
    .where('person_id', '=', personId)
    .executeTakeFirst();
  const holds = await db
    .selectFrom('holds')
    .select((eb) => [
      eb.fn.countAll<string | number>().filterWhere('ended_at', 'is', null).as('open'),
      eb.fn.max('placed_at').as('placed'),
      eb.fn.max('ready_at').as('ready'),
      eb.fn.max('ended_at').as('ended'),
    ])
    .where('person_id', '=', personId)
    .executeTakeFirst();
  const stamps = [loans?.borrowed, loans?.returned, holds?.placed, holds?.ready, holds?.ended].filter(
    (s): s is string => typeof s === 'string',
  );
  const latest = stamps.sort().at(-1);
  return {
    loans: Number(loans?.open ?? 0),
    holds: Number(holds?.open ?? 0),
    lastChange: latest === undefined ? null : new Date(latest),
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

/** The delete's guard: throws PersonHasLendingError while anything is open. */
export async function refuseWhileLending(trx: Kysely<DB>, personId: number): Promise<void> {
  const open = await openLendingOf(trx, personId);
  if (open.loans > 0 || open.holds > 0) throw new PersonHasLendingError(personId, open);
}
