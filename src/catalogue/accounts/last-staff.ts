// The last staff account cannot be removed by any path (ADR 0077): not deleted, locked or demoted
// (HTTP, the CLI, an import), not lost with its person's delete. Without one nobody could manage
// accounts, lend or check in over HTTP; the CLI would be the only way back. Every writer asks
// inside its transaction after the change counter's lock (ADR 0055: PostgreSQL's row lock,
// SQLite's BEGIN IMMEDIATE), so two staff demoting each other at once are serialised: the
// second sees the first's change and is refused.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { AccountError } from './errors.ts';

/** Refused: the account is the last usable (live, unlocked) staff account. */
export class LastStaffError extends AccountError {
  override name = 'LastStaffError';
  constructor() {
    super('this is the last staff account: make another account staff first');
  }
}

/** True when person `personId` holds the only live, unlocked staff account. */
export async function isLastStaff(trx: Kysely<DB>, personId: number): Promise<boolean> {
  const staff = await trx
    .selectFrom('accounts')
    .innerJoin('persons', 'persons.id', 'accounts.person_id')
    .select('accounts.person_id')
    .where('persons.deleted_at', 'is', null)
    .where('accounts.role', '=', 'staff')
    .where('accounts.locked_at', 'is', null)
    .limit(2)
    .execute();
  return staff.length === 1 && staff[0]?.person_id === personId;
}

/** The writers' guard: throws LastStaffError when `personId` holds the last staff account. */
export async function refuseLastStaff(trx: Kysely<DB>, personId: number): Promise<void> {
  if (await isLastStaff(trx, personId)) throw new LastStaffError();
}
