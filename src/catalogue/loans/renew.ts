// Renewing a loan (issue 12 part 3, ADR 0060): one transaction that locks the work and settles its
// queue of holds first (holds/queue.ts), so a hold placed or expired meanwhile is seen. Refused
// when the loan was returned, when it was renewed as often as allowed, or when another member
// has an open hold on the work. The new due date is one loan period after the later of now and
// the current due date: renewing early loses no days, renewing late does not date back.
import type { Kysely } from 'kysely';
import { detectCapabilities, type Capabilities } from '../../storage/index.ts';
import { HOLD_DAYS, lockWork, settleWork } from '../holds/index.ts';
import type { DB } from '../tables.ts';
import { dueAfter, ruleOfCopy } from '../rules/index.ts';
import { LOAN_DAYS } from './store.ts';

export const MAX_RENEWALS = 2;

export type RenewRefusal =
  /** Returned meanwhile. → 410 */
  | 'returned'
  /** Renewed `maxRenewals` times already. → 409 SHELFMARK_RENEWAL_LIMIT */
  | 'limit'
  /** Another member has an open hold on the work. → 409 SHELFMARK_WORK_HELD */
  | 'held';

export type RenewOutcome =
  | { readonly ok: true; readonly dueAt: Date; readonly renewals: number }
  | {
      readonly ok: false;
      readonly reason: RenewRefusal;
      readonly renewals: number;
      /** Renewals the loan's item type allows (ADR 0084); absent when it was not asked. */
      readonly allowed?: number;
    };

export interface RenewalStore {
  readonly maxRenewals: number;
  /** Null when the person has no loan with that id. */
  renew(personId: number, loanId: number): Promise<RenewOutcome | null>;
}

export interface RenewalStoreOptions {
  readonly capabilities?: Capabilities;
  readonly now?: () => Date;
  readonly loanDays?: number;
  readonly holdDays?: number;
  readonly maxRenewals?: number;
}

export function createRenewalStore(db: Kysely<DB>, options: RenewalStoreOptions = {}): RenewalStore {
  const capabilities = options.capabilities ?? detectCapabilities(db);
  const clock = options.now ?? (() => new Date());
  const loanDays = options.loanDays ?? LOAN_DAYS;
  const holdDays = options.holdDays ?? HOLD_DAYS;
  const maxRenewals = options.maxRenewals ?? MAX_RENEWALS;
  const isId = (n: number) => Number.isSafeInteger(n) && n > 0;

  return {
    maxRenewals,
    async renew(personId, loanId) {
      if (!isId(personId) || !isId(loanId)) return null;
      const found = await db
        .selectFrom('loans')
        .select('work_id')
        .where('id', '=', loanId)
        .where('person_id', '=', personId)
        .executeTakeFirst();
      if (!found) return null;
      return db.transaction().execute(async (trx): Promise<RenewOutcome> => {
        const work = await lockWork(trx, found.work_id, capabilities, personId);
        if (!work) throw new Error(`loan ${loanId}: its work ${found.work_id} vanished`);
        const at = clock();
        const settled = await settleWork(trx, work, at.toISOString(), holdDays);
        const loan = await trx
          .selectFrom('loans')
          .select(['due_at', 'returned_at', 'renewals', 'copy_id'])
          .where('id', '=', loanId)
          .executeTakeFirstOrThrow();
        const refuse = (reason: RenewRefusal): Extract<RenewOutcome, { ok: false }> => ({
          ok: false,
          reason,
          renewals: loan.renewals,
        });
        if (loan.returned_at !== null) return refuse('returned');
        // The copy's item type may lend shorter and renew less (ADR 0084); null: the defaults.
        const rule = loan.copy_id === null ? null : await ruleOfCopy(trx, loan.copy_id);
        const allowed = rule?.renewals ?? maxRenewals;
        if (loan.renewals >= allowed) return { ...refuse('limit'), allowed };
        if (settled.holds.some((h) => h.endedAt === null && h.personId !== personId)) return refuse('held');
        const from = new Date(Math.max(at.getTime(), Date.parse(loan.due_at)));
        const dueAt = await dueAfter(trx, from, rule?.loanDays ?? loanDays);
        const renewals = loan.renewals + 1;
        await trx
          .updateTable('loans')
          .set({ due_at: dueAt.toISOString(), renewals, renewed_at: at.toISOString() })
          .where('id', '=', loanId)
          .execute();
        return { ok: true, dueAt, renewals };
      });
    },
  };
}
