// Overdue loans block borrowing (ADR 0061): a person with a loan overdue by more than the
// configured days (SHELFMARK_OVERDUE_BLOCK_DAYS) borrows nothing until it is returned. Read
// inside the borrow's transaction, after the change counter's lock (ADR 0055): a return
// committed before is seen, and nothing changes the person's loans until the borrow commits.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';

export const DEFAULT_OVERDUE_BLOCK_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the person has an open loan due more than `days` days before `now`. */
export async function blockedByOverdue(
  trx: Kysely<DB>,
  personId: number,
  now: Date,
  days: number,
): Promise<boolean> {
  const limit = new Date(now.getTime() - days * DAY_MS).toISOString();
  const row = await trx
    .selectFrom('loans')
    .select('id')
    .where('person_id', '=', personId)
    .where('returned_at', 'is', null)
    .where('due_at', '<', limit)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
