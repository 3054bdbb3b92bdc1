// The holds feature's records and store contract (issue 12, ADR 0059). A hold (Vormerkung) queues
// a member for a work that has no free copy; a hold row is never deleted: cancelled, fulfilled
// (the member borrowed the copy kept for them) and expired holds stay as history.
import type { HoldEndReason } from '../tables.ts';
import type { Lookup, PersonRef, WorkRef } from '../model.ts';
import type { WorkKey } from '../loans/index.ts';

export type { WorkKey };

/** A hold as it is at the moment it was read (status and position computed for that moment). */
export interface Hold {
  readonly id: number;
  readonly person: PersonRef;
  readonly werk: WorkRef;
  readonly placedAt: Date;
  /** waiting: in the queue; ready: a copy is kept until `expiresAt`; ended: history (→ 410). */
  readonly status: 'waiting' | 'ready' | 'ended';
  /** 1 = next to get a copy; null unless waiting. */
  readonly position: number | null;
  /** The copy kept (ready), with its shelfmark; null otherwise. */
  readonly copy: { readonly id: number; readonly signatur: string } | null;
  readonly readyAt: Date | null;
  readonly expiresAt: Date | null;
  readonly endedAt: Date | null;
  readonly endReason: HoldEndReason | null;
}

export interface HoldList<T> {
  /** Open holds, in queue order (a member's: oldest first). */
  readonly items: readonly T[];
  /** The latest change to anything the list shows (also other members' holds ahead); null: none. */
  readonly lastChange: Date | null;
  /**
   * The earliest moment a ready hold of these works runs out: statuses and positions shown
   * change then without a write (ADR 0067). Absent: only a write changes them.
   */
  readonly freshUntil?: Date;
}

export type PlaceRefusal =
  /** A copy is free: borrow it instead. → 409 */
  | 'copy-free'
  /** This member already has an open hold on this work. → 409 */
  | 'already-held'
  /** This member has this work on loan. → 409 */
  | 'already-borrowed'
  /** No such work / deleted. → 422 */
  | 'unknown-work'
  | 'work-gone'
  /** No such (live) person. → 404 */
  | 'unknown-person';

export type PlaceOutcome =
  { readonly ok: true; readonly hold: Hold } | { readonly ok: false; readonly reason: PlaceRefusal };

/** Cancelling: the cancelled hold, `ended` when it had ended before (→ 410), null when unknown. */
export type CancelOutcome = { readonly cancelled: Hold } | { readonly ended: Hold } | null;

export interface HoldStore {
  /** The person a hold list belongs to, by current slug or id (301/410/404 as for persons). */
  personBySlug(slug: string): Promise<Lookup<PersonRef>>;
  personById(id: number): Promise<Lookup<PersonRef>>;
  workBySlug(slug: string): Promise<Lookup<WorkRef>>;
  workById(id: number): Promise<Lookup<WorkRef>>;
  /** The member's open holds as of now. */
  holdsOf(personId: number): Promise<HoldList<Hold>>;
  /** One hold of this member, open or ended, as of now; null when the member has no such hold. */
  hold(personId: number, holdId: number): Promise<Hold | null>;
  /** The work's queue as of now: ready holds first, then the waiting ones in order. */
  queue(workId: number): Promise<HoldList<Hold>>;
  /** Queues the member, atomically: only when no copy is free, once per work, not while on loan. */
  place(personId: number, work: WorkKey): Promise<PlaceOutcome>;
  cancel(personId: number, holdId: number): Promise<CancelOutcome>;
}
