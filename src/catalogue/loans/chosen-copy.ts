// Lending one particular copy (the desk scans its barcode; an API client names it; ADR 0082),
// inside the borrow's transaction after the work's lock: the copy must be a live copy of the
// work, not on loan, and not kept on the hold shelf for anyone but this member. A copy reported
// missing that is in the librarian's hand is found again: it is lent and no longer missing.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { settleWork, type LockedWork } from '../holds/index.ts';
import type { BorrowRefusal } from './model.ts';

export async function chosenCopy(
  trx: Kysely<DB>,
  work: LockedWork,
  personId: number,
  copyId: number,
  at: string,
  holdDays: number,
): Promise<{ readonly id: number } | Extract<BorrowRefusal, 'unknown-copy' | 'copy-on-loan' | 'copy-held'>> {
  const copy = await trx
    .selectFrom('copies')
    .select(['id', 'missing_since'])
    .where('id', '=', copyId)
    .where('work_id', '=', work.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!copy) return 'unknown-copy';
  const lent = await trx
    .selectFrom('loans')
    .select('id')
    .where('copy_id', '=', copy.id)
    .where('returned_at', 'is', null)
    .executeTakeFirst();
  if (lent) return 'copy-on-loan';
  // The queue as of now (a hold that ran out keeps the copy no longer).
  const settled = await settleWork(trx, work, at, holdDays);
  const keptFor = settled.holds.find((h) => h.copyId === copy.id && h.endedAt === null);
  if (keptFor && keptFor.personId !== personId) return 'copy-held';
  if (copy.missing_since !== null)
    await trx.updateTable('copies').set({ missing_since: null }).where('id', '=', copy.id).execute();
  return { id: copy.id };
}
