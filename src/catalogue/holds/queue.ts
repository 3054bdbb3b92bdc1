// A work's queue in the database: locking the work, reading its open holds and free copies, and
// writing a settlement (settle.ts) back. Every write that touches a work's copies or holds —
// placing or cancelling a hold, a borrow, a return, a renewal's check — locks the work first and
// settles its queue as of its own moment, so expiries take effect in the first write after them
// whatever it is (ADR 0059).
import type { Kysely } from 'kysely';
import type { Capabilities } from '../../storage/index.ts';
import { lockSubjects, subject } from '../changes.ts';
import { touchRows } from '../shared/index.ts';
import type { DB } from '../tables.ts';
import { freeCopiesOf } from '../copies/index.ts';
import { settle, type FreeCopy, type OpenHold, type Settlement } from './settle.ts';

export const HOLD_DAYS = 7;

export interface LockedWork {
  readonly id: number;
  readonly exemplare: number;
  readonly deletedAt: string | null;
}

/**
 * Takes the work's lock inside a write transaction: its subject first, with the person's the
 * write is for (ADR 0088: a member's loan limit is checked under it), then the work row (`FOR
 * UPDATE` on PostgreSQL; SQLite's BEGIN IMMEDIATE admits one writer anyway). Whoever holds it
 * sees every loan and hold committed before it.
 */
export async function lockWork(
  trx: Kysely<DB>,
  workId: number,
  capabilities: Capabilities,
  personId?: number,
): Promise<LockedWork | null> {
  await lockSubjects(trx, [
    subject.work(workId),
    ...(personId === undefined ? [] : [subject.person(personId)]),
  ]);
  let query = trx.selectFrom('works').select(['id', 'exemplare', 'deleted_at']).where('id', '=', workId);
  if (capabilities.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? { id: row.id, exemplare: row.exemplare, deletedAt: row.deleted_at } : null;
}

/**
 * lockWork, then the live person the write is for (a borrow, a hold): the locked work, or why
 * there is none to write for.
 */
export async function lockWorkForPerson(
  trx: Kysely<DB>,
  workId: number,
  personId: number,
  capabilities: Capabilities,
): Promise<LockedWork | 'unknown-work' | 'work-gone' | 'unknown-person'> {
  const work = await lockWork(trx, workId, capabilities, personId);
  if (!work) return 'unknown-work';
  if (work.deletedAt !== null) return 'work-gone';
  const person = await trx
    .selectFrom('persons')
    .select('id')
    .where('id', '=', personId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return person ? work : 'unknown-person';
}

export async function openHolds(db: Kysely<DB>, workId: number): Promise<OpenHold[]> {
  const rows = await db
    .selectFrom('holds')
    .select(['id', 'person_id', 'placed_at', 'copy_id', 'ready_at', 'expires_at'])
    .where('work_id', '=', workId)
    .where('ended_at', 'is', null)
    .orderBy('placed_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    personId: r.person_id,
    placedAt: r.placed_at,
    copyId: r.copy_id,
    readyAt: r.ready_at,
    expiresAt: r.expires_at,
  }));
}

/** The work's free copies in shelf order (copies/free.ts: not missing, not lent, not kept). */
export async function freeCopies(db: Kysely<DB>, work: LockedWork, since: string): Promise<FreeCopy[]> {
  const copies = await freeCopiesOf(db, work.id, 10_000);
  return copies.map((c) => ({ id: c.id, since }));
}

/**
 * Settles the locked work's queue as of `at` and writes what changed: holds that ran out end
 * (`expired`, at their own expiry), free copies are kept for the first waiting holds. The work's
 * version moves when anything changed (its `verfuegbar` counts kept copies; ADR 0024).
 */
export async function settleWork(
  trx: Kysely<DB>,
  work: LockedWork,
  at: string,
  holdDays: number,
  /** false: the caller does not read `free`, so with no open hold the copies are not read. */
  freeWanted = true,
): Promise<Settlement> {
  const open = await openHolds(trx, work.id);
  const free = open.length === 0 && !freeWanted ? [] : await freeCopies(trx, work, at);
  const settlement = settle(open, free, at, holdDays);
  if (settlement.changed.size === 0) return settlement;
  // Ended ones first: a copy passed on must leave its old hold before the unique index sees it.
  const changed = settlement.holds.filter((h) => settlement.changed.has(h.id));
  for (const h of [
    ...changed.filter((x) => x.endedAt !== null),
    ...changed.filter((x) => x.endedAt === null),
  ]) {
    await trx
      .updateTable('holds')
      .set({
        copy_id: h.copyId,
        ready_at: h.readyAt,
        expires_at: h.expiresAt,
        ended_at: h.endedAt,
        end_reason: h.endedAt === null ? null : 'expired',
      })
      .where('id', '=', h.id)
      .execute();
  }
  await touchRows(trx, 'works', [work.id], at);
  return settlement;
}
