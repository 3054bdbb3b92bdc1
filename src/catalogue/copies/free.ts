// Which copies of a work can be lent now. One predicate, used by borrowing (which copy a loan
// takes) and by the work's `verfuegbar` (how many could be taken), so the two never disagree.
// Free: live, not missing, not in an open loan, not kept for an open hold. The holds feature
// extends this (the holder may borrow the copy kept for them); keep both uses going through here.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../tables.ts';

/**
 * The condition "this `copies` row is free", for any query that has `copies` in scope (SQL
 * text, because Kysely's types cannot name a table in scope of every caller). Both engines use
 * the partial indexes loans_open_copy and holds_open_copy for the two NOT EXISTS.
 */
export function isFreeCopy(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(copies.deleted_at is null and copies.missing_since is null
    and not exists (select 1 from loans where loans.copy_id = copies.id and loans.returned_at is null)
    and not exists (select 1 from holds where holds.copy_id = copies.id and holds.ended_at is null))`;
}

export interface FreeCopy {
  readonly id: number;
  readonly nummer: number;
}

/**
 * The free copies of a work, lowest `nummer` first (a borrow takes the first). Call it inside
 * the borrowing transaction, after the work's lock, so no other borrow takes the same copy.
 */
export function freeCopiesOf(trx: Kysely<DB>, workId: number, limit = 1): Promise<FreeCopy[]> {
  return trx
    .selectFrom('copies')
    .select(['copies.id', 'copies.nummer'])
    .where('copies.work_id', '=', workId)
    .where(isFreeCopy())
    .orderBy('copies.nummer')
    .limit(limit)
    .execute();
}
