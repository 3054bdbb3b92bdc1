// Staff's edits of the circulation rules (ADR 0093 on ADR 0084): item types and closed days.
// Every write takes the change counter's lock first (ADR 0055), as every circulation write does,
// so a type found unused here cannot get a copy before it is deleted, and the lending
// transaction reads either the old rules or the new ones. A type in use is never deleted
// (the foreign key on PostgreSQL, a trigger on SQLite, and the check here that names it).
import type { Kysely } from 'kysely';
import { ConflictError } from '../../storage/index.ts';
import { lockSubjects } from '../changes.ts';

/**
 * An edit of the rules changes every due date computed after it: it holds off every other
 * catalogue writer, as an import does (ADR 0088), and its tables move the change counter.
 */
const lockRules = (trx: Kysely<DB>) => lockSubjects(trx, [], true);
import {
  ChangedMeanwhileError,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
} from '../shared/index.ts';
import type { DB } from '../tables.ts';

export interface ItemTypeInput {
  readonly nameDe: string;
  readonly nameEn: string;
  readonly lendable: boolean;
  /** Null: the configured default loan period. */
  readonly loanDays: number | null;
  /** Null: the configured SHELFMARK_MAX_RENEWALS. */
  readonly renewals: number | null;
  /** Null: only the overall limit. */
  readonly maxLoans: number | null;
}

export interface ItemType extends ItemTypeInput {
  readonly code: string;
  readonly updatedAt: Date;
  /** Copies of this type (a type in use cannot be deleted). */
  readonly copies: number;
}

export interface ClosedDay {
  readonly day: string;
  readonly reason: string;
  readonly createdAt: Date;
}

export class ItemTypeInUseError extends Error {
  readonly copies: number;
  constructor(code: string, copies: number) {
    super(`the item type "${code}" is the type of ${copies} copies`);
    this.name = 'ItemTypeInUseError';
    this.copies = copies;
  }
}

export interface RulesEditingStore {
  itemTypes(): Promise<ItemType[]>;
  itemType(code: string): Promise<ItemType | null>;
  /** ConflictError when the code is taken. */
  createItemType(code: string, input: ItemTypeInput): Promise<ItemType>;
  /** Null: no such type; ChangedMeanwhileError when `expect` names a version that is gone. */
  replaceItemType(code: string, input: ItemTypeInput, expect?: WriteExpectation): Promise<ItemType | null>;
  /** False: no such type; ItemTypeInUseError when copies have it. */
  deleteItemType(code: string): Promise<boolean>;
  /** Closed days from `from` (YYYY-MM-DD) on, in order; all without it. */
  closedDays(from?: string): Promise<ClosedDay[]>;
  closedDay(day: string): Promise<ClosedDay | null>;
  /** Adds the day or changes its reason; `created` says which. */
  putClosedDay(day: string, reason: string): Promise<{ day: ClosedDay; created: boolean }>;
  deleteClosedDay(day: string): Promise<boolean>;
}

export function createRulesEditingStore(db: Kysely<DB>, now: () => string): RulesEditingStore {
  const typesWithCounts = (trx: Kysely<DB>) =>
    trx.selectFrom('item_types').select((eb) => [
      'item_types.code',
      'item_types.name_de',
      'item_types.name_en',
      'item_types.lendable',
      'item_types.loan_days',
      'item_types.renewals',
      'item_types.max_loans',
      'item_types.updated_at',
      eb
        .selectFrom('copies')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('copies.item_type', '=', 'item_types.code')
        .as('copies'),
    ]);
  type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof typesWithCounts>['executeTakeFirst']>>>;
  const typeOf = (r: Row): ItemType => ({
    code: r.code,
    nameDe: r.name_de,
    nameEn: r.name_en,
    lendable: Number(r.lendable) === 1,
    loanDays: r.loan_days === null ? null : Number(r.loan_days),
    renewals: r.renewals === null ? null : Number(r.renewals),
    maxLoans: r.max_loans === null ? null : Number(r.max_loans),
    updatedAt: new Date(r.updated_at),
    copies: Number(r.copies ?? 0),
  });
  const columns = (input: ItemTypeInput) => ({
    name_de: input.nameDe,
    name_en: input.nameEn,
    lendable: input.lendable ? 1 : 0,
    loan_days: input.loanDays,
    renewals: input.renewals,
    max_loans: input.maxLoans,
  });
  const dayOf = (r: { day: string; reason: string; created_at: string }): ClosedDay => ({
    day: r.day,
    reason: r.reason,
    createdAt: new Date(r.created_at),
  });
  const findType = async (trx: Kysely<DB>, code: string) => {
    const row = await typesWithCounts(trx).where('item_types.code', '=', code).executeTakeFirst();
    return row ? typeOf(row) : null;
  };

  return {
    async itemTypes() {
      return (await typesWithCounts(db).orderBy('item_types.code').execute()).map(typeOf);
    },
    itemType: (code) => findType(db, code),

    createItemType(code, input) {
      return db.transaction().execute(async (trx) => {
        await lockRules(trx);
        if (await findType(trx, code)) throw new ConflictError(`the item type "${code}" exists`);
        await trx
          .insertInto('item_types')
          .values({ code, ...columns(input), updated_at: now() })
          .execute();
        return (await findType(trx, code))!;
      });
    },

    replaceItemType(code, input, expect) {
      return db.transaction().execute(async (trx) => {
        await lockRules(trx);
        const current = await findType(trx, code);
        if (!current) return null;
        const expected = expectedText(expect);
        if (expected !== undefined && current.updatedAt.toISOString() !== expected)
          throw new ChangedMeanwhileError(`the item type "${code}"`);
        await trx
          .updateTable('item_types')
          .set({ ...columns(input), updated_at: nextUpdatedAt(now(), current.updatedAt.toISOString()) })
          .where('code', '=', code)
          .execute();
        return findType(trx, code);
      });
    },

    deleteItemType(code) {
      return db.transaction().execute(async (trx) => {
        await lockRules(trx);
        const current = await findType(trx, code);
        if (!current) return false;
        if (current.copies > 0) throw new ItemTypeInUseError(code, current.copies);
        await trx.deleteFrom('item_types').where('code', '=', code).execute();
        return true;
      });
    },

    async closedDays(from) {
      let query = db.selectFrom('closed_days').select(['day', 'reason', 'created_at']);
      if (from !== undefined) query = query.where('day', '>=', from);
      return (await query.orderBy('day').execute()).map(dayOf);
    },

    async closedDay(day) {
      const row = await db
        .selectFrom('closed_days')
        .select(['day', 'reason', 'created_at'])
        .where('day', '=', day)
        .executeTakeFirst();
      return row ? dayOf(row) : null;
    },

    putClosedDay(day, reason) {
      return db.transaction().execute(async (trx) => {
        await lockRules(trx);
        const updated = await trx
          .updateTable('closed_days')
          .set({ reason })
          .where('day', '=', day)
          .executeTakeFirst();
        const created = updated.numUpdatedRows === 0n;
        if (created) await trx.insertInto('closed_days').values({ day, reason, created_at: now() }).execute();
        const row = await trx
          .selectFrom('closed_days')
          .select(['day', 'reason', 'created_at'])
          .where('day', '=', day)
          .executeTakeFirstOrThrow();
        return { day: dayOf(row), created };
      });
    },

    deleteClosedDay(day) {
      return db.transaction().execute(async (trx) => {
        await lockRules(trx);
        const deleted = await trx.deleteFrom('closed_days').where('day', '=', day).executeTakeFirst();
        return deleted.numDeletedRows > 0n;
      });
    },
  };
}
