// The terms of one loan, decided inside the lending transaction after the work's lock (ADR 0084):
// whether the copy's item type lends at all, whether the member is under the overall and the
// type's loan limit, and the due date (the type's period, moved past closed days). Every
// circulation write takes the change counter's lock first (ADR 0055: FOR UPDATE on PostgreSQL,
// BEGIN IMMEDIATE on SQLite), so the member's open loans counted here cannot change before the
// loan is inserted: concurrent borrows by one member queue and never exceed a limit.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { isFreeCopy } from '../copies/index.ts';
import { nextOpenDay } from './calendar.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RuleDefaults {
  /** Loan period of a type without its own (default 28). */
  readonly loanDays: number;
  /** Open loans a member may have in all; 0: no limit (SHELFMARK_LOAN_LIMIT). */
  readonly loanLimit: number;
}

export type TermsRefusal =
  /** The copy's item type is not for loan (reference stock). → 409 SHELFMARK_NOT_LENDABLE */
  | 'not-lendable'
  /** The member has as many open loans as allowed, in all or of this type. → 409 SHELFMARK_LOAN_LIMIT */
  | 'loan-limit';

export type Terms =
  { readonly ok: true; readonly dueAt: Date } | { readonly ok: false; readonly reason: TermsRefusal };

export interface ItemTypeRule {
  readonly code: string;
  readonly lendable: boolean;
  readonly loanDays: number | null;
  readonly renewals: number | null;
  readonly maxLoans: number | null;
}

/** The item type of a copy (every copy has one: migration 0020). */
export async function ruleOfCopy(db: Kysely<DB>, copyId: number): Promise<ItemTypeRule> {
  const row = await db
    .selectFrom('copies')
    .innerJoin('item_types', 'item_types.code', 'copies.item_type')
    .select([
      'item_types.code',
      'item_types.lendable',
      'item_types.loan_days',
      'item_types.renewals',
      'item_types.max_loans',
    ])
    .where('copies.id', '=', copyId)
    .executeTakeFirstOrThrow();
  return {
    code: row.code,
    lendable: row.lendable === 1,
    loanDays: row.loan_days,
    renewals: row.renewals,
    maxLoans: row.max_loans,
  };
}

/** The due date of a loan period starting at `from`: whole days later, past closed days. */
export function dueAfter(db: Kysely<DB>, from: Date, days: number): Promise<Date> {
  return nextOpenDay(db, new Date(from.getTime() + days * DAY_MS));
}

/** Whether and until when `personId` may borrow copy `copyId` at `at` (call after the work's lock). */
export async function loanTerms(
  trx: Kysely<DB>,
  personId: number,
  copyId: number,
  at: Date,
  defaults: RuleDefaults,
): Promise<Terms> {
  const rule = await ruleOfCopy(trx, copyId);
  if (!rule.lendable) return { ok: false, reason: 'not-lendable' };
  const open = await trx
    .selectFrom('loans')
    .leftJoin('copies', 'copies.id', 'loans.copy_id')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('all'),
      eb.fn
        .sum<number | string | null>(sql`case when copies.item_type = ${rule.code} then 1 else 0 end`)
        .as('same'),
    ])
    .where('loans.person_id', '=', personId)
    .where('loans.returned_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (defaults.loanLimit > 0 && Number(open.all) >= defaults.loanLimit)
    return { ok: false, reason: 'loan-limit' };
  if (rule.maxLoans !== null && Number(open.same ?? 0) >= rule.maxLoans)
    return { ok: false, reason: 'loan-limit' };
  return { ok: true, dueAt: await dueAfter(trx, at, rule.loanDays ?? defaults.loanDays) };
}

/**
 * The first free copy of a work whose type lends, lowest `nummer` first; else the first free
 * one of any type (whose terms then refuse it as not lendable); undefined: none free.
 */
export async function firstFreeCopy(trx: Kysely<DB>, workId: number): Promise<{ id: number } | undefined> {
  return trx
    .selectFrom('copies')
    .innerJoin('item_types', 'item_types.code', 'copies.item_type')
    .select('copies.id')
    .where('copies.work_id', '=', workId)
    .where(isFreeCopy())
    .orderBy('item_types.lendable', 'desc')
    .orderBy('copies.nummer')
    .limit(1)
    .executeTakeFirst();
}
