// SQL-backed HoldStore (both engines). Every write locks the work and settles its queue first
// (queue.ts), so concurrent holds, cancellations, borrows and returns of one work run one after
// the other and the queue stays first-come. Reads write nothing: they settle in memory for "now".
import type { Kysely } from 'kysely';
import { detectCapabilities, type Capabilities } from '../../storage/index.ts';
import type { Lookup, PersonRef, WorkRef } from '../model.ts';
import { touchRows } from '../shared/index.ts';
import type { DB } from '../tables.ts';
import type { CancelOutcome, Hold, HoldList, HoldStore, PlaceOutcome } from './model.ts';
import { HOLD_DAYS, lockWork, lockWorkForPerson, openHolds, settleWork } from './queue.ts';
import type { loadHolds } from './read.ts';
import { holdsAsOf } from './read.ts';
import { personLookup, workIdOf, workLookup } from './lookups.ts';

export interface HoldStoreOptions {
  readonly capabilities?: Capabilities;
  /** Clock (tests pin it). */
  readonly now?: () => Date;
  /** Days a returned copy is kept for the first in the queue (default 7, SHELFMARK_HOLD_DAYS). */
  readonly holdDays?: number;
}

const isId = (n: number) => Number.isSafeInteger(n) && n > 0;

export function createHoldStore(db: Kysely<DB>, options: HoldStoreOptions = {}): HoldStore {
  const capabilities = options.capabilities ?? detectCapabilities(db);
  const clock = options.now ?? (() => new Date());
  const holdDays = options.holdDays ?? HOLD_DAYS;

  const asOf = (conn: Kysely<DB>, where: Parameters<typeof loadHolds>[1], at: string) =>
    holdsAsOf(conn, where, at, holdDays);

  async function one(conn: Kysely<DB>, personId: number, holdId: number, at: string): Promise<Hold | null> {
    const found = await asOf(conn, { personId, holdId }, at);
    return found.items[0] ?? null;
  }

  return {
    personBySlug: (slug) => personLookup(db, { slug }),
    personById: (id) => (isId(id) ? personLookup(db, { id }) : Promise.resolve(null)),
    workBySlug: (slug) => workLookup(db, { slug }),
    workById: (id) => (isId(id) ? workLookup(db, { id }) : Promise.resolve(null)),

    async holdsOf(personId): Promise<HoldList<Hold>> {
      if (!isId(personId)) return { items: [], lastChange: null };
      const all = await asOf(db, { personId }, clock().toISOString());
      return { ...all, items: all.items.filter((h) => h.status !== 'ended') };
    },

    async hold(personId, holdId) {
      if (!isId(personId) || !isId(holdId)) return null;
      return one(db, personId, holdId, clock().toISOString());
    },

    async queue(workId): Promise<HoldList<Hold>> {
      if (!isId(workId)) return { items: [], lastChange: null };
      const all = await asOf(db, { workId }, clock().toISOString());
      const open = all.items.filter((h) => h.status !== 'ended');
      // Ready first (each has its copy), then the waiting ones by position.
      const rank = (h: Hold) => (h.status === 'ready' ? 0 : (h.position ?? 0));
      return { ...all, items: open.sort((a, b) => rank(a) - rank(b)) };
    },

    async place(personId, key): Promise<PlaceOutcome> {
      if (!isId(personId)) return { ok: false, reason: 'unknown-person' };
      const workId = await workIdOf(db, key);
      if (typeof workId !== 'number') return { ok: false, reason: workId };
      return db.transaction().execute(async (trx): Promise<PlaceOutcome> => {
        const work = await lockWorkForPerson(trx, workId, personId, capabilities);
        if (typeof work === 'string') return { ok: false, reason: work };
        const at = clock().toISOString();
        const settled = await settleWork(trx, work, at, holdDays);
        if (settled.holds.some((h) => h.personId === personId && h.endedAt === null))
          return { ok: false, reason: 'already-held' };
        const onLoan = await trx
          .selectFrom('loans')
          .select('id')
          .where('work_id', '=', workId)
          .where('person_id', '=', personId)
          .where('returned_at', 'is', null)
          .executeTakeFirst();
        if (onLoan) return { ok: false, reason: 'already-borrowed' };
        if (settled.free.length > 0) return { ok: false, reason: 'copy-free' };
        const { id } = await trx
          .insertInto('holds')
          .values({ person_id: personId, work_id: workId, placed_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The work's queue (staff) shows it: a new version of the work (ADR 0024).
        await touchRows(trx, 'works', [workId], at);
        const hold = await one(trx, personId, id, at);
        if (!hold) throw new Error(`hold ${id} vanished inside its transaction`);
        return { ok: true, hold };
      });
    },

    async cancel(personId, holdId): Promise<CancelOutcome> {
      if (!isId(personId) || !isId(holdId)) return null;
      const row = await db
        .selectFrom('holds')
        .select('work_id')
        .where('id', '=', holdId)
        .where('person_id', '=', personId)
        .executeTakeFirst();
      if (!row) return null;
      return db.transaction().execute(async (trx): Promise<CancelOutcome> => {
        const work = await lockWork(trx, row.work_id, capabilities);
        if (!work) return null;
        const at = clock().toISOString();
        await settleWork(trx, work, at, holdDays);
        const ended = await trx
          .updateTable('holds')
          .set({ ended_at: at, end_reason: 'cancelled' })
          .where('id', '=', holdId)
          .where('ended_at', 'is', null)
          .executeTakeFirst();
        const changed = Number(ended.numUpdatedRows) > 0;
        // A kept copy goes to the next in the queue at once.
        if (changed) {
          await settleWork(trx, work, at, holdDays);
          await touchRows(trx, 'works', [work.id], at);
        }
        const hold = await one(trx, personId, holdId, at);
        if (!hold) return null;
        return changed ? { cancelled: hold } : { ended: hold };
      });
    },
  };
}

export { openHolds };
export type { Lookup, PersonRef, WorkRef };
