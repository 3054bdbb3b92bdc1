// What borrowing and returning do with a work's holds (ADR 0059), inside their transactions,
// after the work's lock (lockWork): a return settles the queue, so the copy is kept for the first
// in it; a borrow settles it first, then lends the member the copy kept for them, if any, and
// ends their hold as fulfilled. Copies kept for others are not free (copies/free.ts).
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { settleWork, type LockedWork } from './queue.ts';

/** Settles the queue, then takes the copy kept for `personId` (null: none), fulfilling the hold. */
export async function takeKeptCopy(
  trx: Kysely<DB>,
  work: LockedWork,
  personId: number,
  at: string,
  holdDays: number,
): Promise<number | null> {
  const settled = await settleWork(trx, work, at, holdDays);
  const mine = settled.holds.find((h) => h.personId === personId && h.endedAt === null && h.copyId !== null);
  if (!mine) return null;
  await trx
    .updateTable('holds')
    .set({ ended_at: at, end_reason: 'fulfilled' })
    .where('id', '=', mine.id)
    .execute();
  return mine.copyId;
}
