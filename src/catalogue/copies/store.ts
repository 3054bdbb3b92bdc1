// SQL-backed copy store (both engines): a work's copies read with their status (read.ts), and
// the staff's writes. Every write takes the change counter first (ADR 0055) and the work's
// lock, settles the work's queue (ADR 0059), keeps `works.exemplare` equal to the live copies
// (count.ts) and gives the work a new version, since the work's page lists its copies (ADR 0024). A copy is addressed within its work by `nummer`,
// which the write flow sees as the copy's slug.
import type { Kysely } from 'kysely';
import type { Lookup } from '../model.ts';
import { claimRow, compareAndSet, expectedText, type WriteExpectation, touchRows } from '../shared/index.ts';
import { resolveOptions, type StoreOptions } from '../store-options.ts';
import type { DB } from '../tables.ts';
import { CopiesOnLoanError, nextNummer, syncCopyCount } from './count.ts';
import type { Copy, CopyInput } from './model.ts';
import { HOLD_DAYS, lockWork as lockQueue, settleWork, type LockedWork } from '../holds/index.ts';
import { copiesOfWork, liveCopies, type ReadClock } from './read.ts';

/** The copies of one work, in the shape the write flow (writes/flow.ts) takes. */
export interface WorkCopies {
  bySlug(nummer: string): Promise<Lookup<Copy>>;
  byId(id: number): Promise<Lookup<Copy>>;
  create(input: CopyInput | (CopyInput & { readonly slug: string })): Promise<Copy>;
  replace(id: number, input: CopyInput, expect?: WriteExpectation): Promise<Copy | null>;
  delete(id: number, expect?: WriteExpectation): Promise<boolean>;
}

export interface CopyStore {
  /** The live copies of a work, by number. */
  list(workId: number): Promise<Copy[]>;
  /** One work's copies to read and write. */
  ofWork(workId: number): WorkCopies;
}

const NUMMER = /^[1-9]\d{0,8}$/;

export function createCopyStore(db: Kysely<DB>, options?: StoreOptions): CopyStore {
  const { capabilities, now } = resolveOptions(db, options);
  const holdDays = options?.holdDays ?? HOLD_DAYS;
  const clock: ReadClock = { now, holdDays };

  async function find(conn: Kysely<DB>, workId: number, match: (c: Copy) => boolean): Promise<Lookup<Copy>> {
    const found = (await copiesOfWork(conn, workId, clock)).find(match);
    if (!found) return null;
    if (found.deleted) return { gone: true };
    const { deleted: _deleted, ...copy } = found;
    return { found: copy };
  }

  async function loadLive(conn: Kysely<DB>, workId: number, id: number): Promise<Copy> {
    const found = await find(conn, workId, (c) => c.id === id);
    if (!found || !('found' in found)) throw new Error(`copy ${id} vanished while being written`);
    return found.found;
  }

  /**
   * The work's lock (the change counter, then its row FOR UPDATE on PostgreSQL: borrows and
   * holds of it wait), then its queue settled as of now like every circulation write does (ADR
   * 0059): a hold that ran out has left its copy before this write decides anything, as the
   * reads already show (ADR 0067). Null: no live work.
   */
  async function lockWork(trx: Kysely<DB>, workId: number): Promise<LockedWork | null> {
    const work = await lockQueue(trx, workId, capabilities);
    if (!work || work.deletedAt !== null) return null;
    await settleWork(trx, work, now(), holdDays);
    return work;
  }

  function ofWork(workId: number): WorkCopies {
    return {
      bySlug: async (nummer) =>
        NUMMER.test(nummer) ? find(db, workId, (c) => c.nummer === Number(nummer)) : null,
      byId: (id) => find(db, workId, (c) => c.id === id),

      create: (input) =>
        db.transaction().execute(async (trx) => {
          const work = await lockWork(trx, workId);
          if (!work) throw new Error(`work ${workId} is gone`);
          const at = now();
          const nummer = 'slug' in input ? Number(input.slug) : await nextNummer(trx, workId);
          const { id } = await trx
            .insertInto('copies')
            .values({
              work_id: workId,
              nummer,
              signatur: input.signatur,
              barcode: input.barcode,
              standort: input.standort,
              missing_since: input.vermisst ? at : null,
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await syncCopyCount(trx, workId);
          await touchRows(trx, 'works', [workId], at);
          // A copy added while members wait is kept for the first of them.
          await settleWork(trx, work, at, holdDays);
          return loadLive(trx, workId, id);
        }),

      replace: (id, input, expect) => {
        const expected = expectedText(expect);
        return compareAndSet(expected, () =>
          db.transaction().execute(async (trx) => {
            const work = await lockWork(trx, workId);
            if (!work) return null;
            const current = await trx
              .selectFrom('copies')
              .select(['updated_at', 'missing_since'])
              .where('id', '=', id)
              .where('work_id', '=', workId)
              .where('deleted_at', 'is', null)
              .executeTakeFirst();
            if (!current) return null;
            const at = await claimRow(trx, 'copies', id, expected ?? current.updated_at, now());
            await trx
              .updateTable('copies')
              .set({
                signatur: input.signatur,
                barcode: input.barcode,
                standort: input.standort,
                // Missing since it was first reported; found again, the date goes.
                missing_since: input.vermisst ? (current.missing_since ?? at) : null,
              })
              .where('id', '=', id)
              .execute();
            await touchRows(trx, 'works', [workId], at);
            // A copy found again while members wait is kept for the first of them.
            await settleWork(trx, work, at, holdDays);
            return loadLive(trx, workId, id);
          }),
        );
      },

      delete: (id, expect) => {
        const expected = expectedText(expect);
        return compareAndSet(expected, () =>
          db.transaction().execute(async (trx) => {
            if (!(await lockWork(trx, workId))) return false;
            const current = (await copiesOfWork(trx, workId, clock)).find((c) => c.id === id && !c.deleted);
            if (!current) return false;
            // Lent or kept for a hold: it stays until it is back or the hold is over.
            if (current.status.kind === 'ausgeliehen' || (await keptForHold(trx, id)))
              throw new CopiesOnLoanError(`copy ${id} is lent or kept for a hold`);
            const at = await claimRow(trx, 'copies', id, expected ?? current.updatedAt.toISOString(), now());
            await trx.updateTable('copies').set({ deleted_at: at }).where('id', '=', id).execute();
            await syncCopyCount(trx, workId);
            await touchRows(trx, 'works', [workId], at);
            return true;
          }),
        );
      },
    };
  }

  return { list: async (workId) => await liveCopies(db, workId, clock), ofWork };
}

async function keptForHold(trx: Kysely<DB>, copyId: number): Promise<boolean> {
  const hold = await trx
    .selectFrom('holds')
    .select('id')
    .where('copy_id', '=', copyId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return hold !== undefined;
}
