// Holds as they are at a moment, without writing: the stored rows, with each work's queue settled
// in memory for that moment (settle.ts). A ready hold whose time ran out shows as ended, and the
// next in the queue as ready, exactly as the next write will store them (ADR 0059).
import type { Kysely } from 'kysely';
import type { DB, HoldEndReason } from '../tables.ts';
import type { Hold, HoldList } from './model.ts';
import { latestStamp, earliestFreshUntil } from '../shared/index.ts';
import { openHolds } from './queue.ts';
import { positions, settle, type SettledHold } from './settle.ts';

export type HoldsWhere =
  { readonly personId: number; readonly holdId?: number } | { readonly workId: number };

function holdsQuery(db: Kysely<DB>) {
  return db
    .selectFrom('holds')
    .innerJoin('persons', 'persons.id', 'holds.person_id')
    .innerJoin('works', 'works.id', 'holds.work_id')
    .select([
      'holds.id',
      'holds.placed_at',
      'holds.copy_id',
      'holds.ready_at',
      'holds.expires_at',
      'holds.ended_at',
      'holds.end_reason',
      'persons.id as person_id',
      'persons.slug as person_slug',
      'persons.vorname',
      'persons.nachname',
      'works.id as work_id',
      'works.slug as work_slug',
      'works.titel',
    ]);
}

export async function loadHolds(db: Kysely<DB>, where: HoldsWhere) {
  let query = holdsQuery(db);
  if ('workId' in where) query = query.where('holds.work_id', '=', where.workId);
  else {
    query = query.where('holds.person_id', '=', where.personId);
    if (where.holdId !== undefined) query = query.where('holds.id', '=', where.holdId);
  }
  return query.orderBy('holds.placed_at').orderBy('holds.id').execute();
}

const date = (s: string | null) => (s === null ? null : new Date(s));

export async function holdsAsOf(
  db: Kysely<DB>,
  where: HoldsWhere,
  at: string,
  holdDays: number,
): Promise<HoldList<Hold>> {
  const rows = await loadHolds(db, where);
  const workIds = [...new Set(rows.map((r) => r.work_id))];
  const settled = new Map<number, SettledHold>();
  const position = new Map<number, number>();
  // A ready hold still open at `at` runs out later: the earliest is when the list changes next.
  const runsOut: Date[] = [];
  for (const workId of workIds) {
    const queue = settle(await openHolds(db, workId), [], at, holdDays).holds;
    for (const h of queue) {
      settled.set(h.id, h);
      if (h.endedAt === null && h.expiresAt !== null) runsOut.push(new Date(h.expiresAt));
    }
    for (const [id, n] of positions(queue)) position.set(id, n);
  }
  const copyIds = [
    ...new Set([...settled.values()].map((h) => h.copyId).filter((c): c is number => c !== null)),
  ];
  const signatur = new Map<number, string>();
  if (copyIds.length > 0) {
    const copies = await db
      .selectFrom('copies')
      .select(['id', 'signatur'])
      .where('id', 'in', copyIds)
      .execute();
    for (const c of copies) signatur.set(c.id, c.signatur);
  }

  const items = rows.map((r): Hold => {
    const base = {
      id: r.id,
      person: { id: r.person_id, slug: r.person_slug, vorname: r.vorname, nachname: r.nachname },
      werk: { id: r.work_id, slug: r.work_slug, titel: r.titel },
      placedAt: new Date(r.placed_at),
    };
    const s = r.ended_at === null ? settled.get(r.id) : undefined;
    if (s === undefined || s.endedAt !== null) {
      const endedAt = s?.endedAt ?? r.ended_at;
      const endReason: HoldEndReason | null = s ? 'expired' : r.end_reason;
      return {
        ...base,
        status: 'ended',
        position: null,
        copy: null,
        readyAt: date(s?.readyAt ?? r.ready_at),
        expiresAt: date(s?.expiresAt ?? r.expires_at),
        endedAt: date(endedAt),
        endReason,
      };
    }
    const copy = s.copyId === null ? null : { id: s.copyId, signatur: signatur.get(s.copyId) ?? '' };
    return {
      ...base,
      status: copy === null ? 'waiting' : 'ready',
      position: copy === null ? (position.get(r.id) ?? null) : null,
      copy,
      readyAt: date(s.readyAt),
      expiresAt: date(s.expiresAt),
      endedAt: null,
      endReason: null,
    };
  });
  return {
    items,
    lastChange: await lastChange(db, workIds, settled.values(), at),
    ...earliestFreshUntil(runsOut),
  };
}

/**
 * The latest change to anything a list of these works' holds shows: any hold of the works placed,
 * made ready or ended (another member's cancellation moves a position), stored or as of `at`.
 */
async function lastChange(
  db: Kysely<DB>,
  workIds: readonly number[],
  settled: Iterable<SettledHold>,
  at: string,
): Promise<Date | null> {
  if (workIds.length === 0) return null;
  const row = await db
    .selectFrom('holds')
    .select((eb) => [
      eb.fn.max('placed_at').as('placed'),
      eb.fn.max('ready_at').as('ready'),
      eb.fn.max('ended_at').as('ended'),
    ])
    .where('work_id', 'in', workIds)
    .executeTakeFirst();
  const stamps = [row?.placed, row?.ready, row?.ended];
  for (const h of settled) stamps.push(h.readyAt, h.endedAt);
  return latestStamp(stamps, at);
}
