// Reading a work's copies with their derived status: one prepared statement per work (ADR
// 0047) that brings every copy, withdrawn ones too (their URL answers 410), with the open loan
// and the ready hold that name it. The copy resources read through it; a work's own statement
// embeds the same rows of its live copies (liveCopiesJson), so its page reads one snapshot.
// A copy kept for a hold is shown as the queue is *now* (ADR 0059, 0067): when a work has a kept
// copy, its queue is settled in memory for the read's moment (one more query), so a hold that
// ran out shows its copy free or kept for the next in the queue before any write stores that,
// and each copy says until when its status holds (`freshUntil`).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonRows, param, parseJsonRows, prepare, type JsonRows } from '../../storage/index.ts';
import { latestStamp } from '../shared/index.ts';
import type { DB } from '../tables.ts';
import type { PersonRef } from '../model.ts';
import { openHolds, settle, type SettledHold } from '../holds/index.ts';
import type { Copy, CopyStatus } from './model.ts';

/** The moment a read shows the queue for, and how long a copy is kept (SHELFMARK_HOLD_DAYS). */
export interface ReadClock {
  /** ISO 8601 UTC. */
  readonly now: () => string;
  readonly holdDays: number;
}

interface CopyRow {
  readonly id: number;
  readonly nummer: number;
  readonly signatur: string;
  readonly barcode: string;
  readonly standort: string;
  readonly missing_since: string | null;
  readonly updated_at: string;
  readonly deleted_at: string | null;
  readonly work_id: number;
  readonly work_slug: string;
  readonly titel: string;
  readonly loan_id: number | null;
  readonly due_at: string | null;
  readonly borrowed_at: string | null;
  readonly renewed_at: string | null;
  readonly loan_person_id: number | null;
  readonly loan_person_slug: string | null;
  readonly loan_vorname: string | null;
  readonly loan_nachname: string | null;
  readonly ready_at: string | null;
  readonly hold_person_id: number | null;
  readonly hold_person_slug: string | null;
  readonly hold_vorname: string | null;
  readonly hold_nachname: string | null;
}

/**
 * A copy row's columns, in order: the select list of BY_WORK and the JSON array of rows a work's
 * own statement embeds (works/read.ts). `w` is the copy's work: inside the embedded subquery,
 * `works` is the outer row.
 */
const COPY_COLUMNS: readonly (readonly [keyof CopyRow, string])[] = [
  ['id', 'copies.id'],
  ['nummer', 'copies.nummer'],
  ['signatur', 'copies.signatur'],
  ['barcode', 'copies.barcode'],
  ['standort', 'copies.standort'],
  ['missing_since', 'copies.missing_since'],
  ['updated_at', 'copies.updated_at'],
  ['deleted_at', 'copies.deleted_at'],
  ['work_id', 'w.id'],
  ['work_slug', 'w.slug'],
  ['titel', 'w.titel'],
  ['loan_id', 'loans.id'],
  ['due_at', 'loans.due_at'],
  ['borrowed_at', 'loans.borrowed_at'],
  ['renewed_at', 'loans.renewed_at'],
  ['loan_person_id', 'lp.id'],
  ['loan_person_slug', 'lp.slug'],
  ['loan_vorname', 'lp.vorname'],
  ['loan_nachname', 'lp.nachname'],
  ['ready_at', 'holds.ready_at'],
  ['hold_person_id', 'hp.id'],
  ['hold_person_slug', 'hp.slug'],
  ['hold_vorname', 'hp.vorname'],
  ['hold_nachname', 'hp.nachname'],
];

/** Copies with their work, the open loan and the ready hold that name them, and who holds those. */
function copiesFrom(db: Kysely<DB>) {
  return db
    .selectFrom('copies')
    .innerJoin('works as w', 'w.id', 'copies.work_id')
    .leftJoin('loans', (join) =>
      join.onRef('loans.copy_id', '=', 'copies.id').on('loans.returned_at', 'is', null),
    )
    .leftJoin('persons as lp', 'lp.id', 'loans.person_id')
    .leftJoin('holds', (join) =>
      join
        .onRef('holds.copy_id', '=', 'copies.id')
        .on('holds.ended_at', 'is', null)
        .on('holds.ready_at', 'is not', null),
    )
    .leftJoin('persons as hp', 'hp.id', 'holds.person_id');
}

const BY_WORK = prepare<{ work: number }, CopyRow, DB>((db: Kysely<DB>) =>
  copiesFrom(db)
    .select(COPY_COLUMNS.map(([alias, ref]) => sql.ref(ref).as(alias)))
    .where('copies.work_id', '=', param<number>('work'))
    .orderBy('copies.nummer'),
);

/** What `liveCopiesJson` brings. */
export type CopiesJson = JsonRows<unknown[]>;

/**
 * The live copies of the outer query's `works` row as one JSON array of rows (COPY_COLUMNS in
 * order), so a work and its copies are read by one statement, from one snapshot.
 */
export function liveCopiesJson(db: Kysely<DB>): RawBuilder<CopiesJson> {
  const rows = jsonRows<unknown[], DB>(
    db,
    COPY_COLUMNS.map(([, ref]) => sql.ref(ref)),
    sql.ref('copies.nummer'),
  );
  const query = copiesFrom(db)
    .select(rows.as('rows'))
    .where(sql<boolean>`copies.work_id = works.id`)
    .where('copies.deleted_at', 'is', null);
  return sql<CopiesJson>`(${query})`;
}

function statusOf(r: CopyRow): CopyStatus {
  if (r.missing_since !== null) return { kind: 'vermisst', since: new Date(r.missing_since) };
  if (r.loan_id !== null && r.loan_person_id !== null)
    return {
      kind: 'ausgeliehen',
      faellig: new Date(r.due_at!),
      loanId: r.loan_id,
      person: {
        id: r.loan_person_id,
        slug: r.loan_person_slug!,
        vorname: r.loan_vorname!,
        nachname: r.loan_nachname!,
      },
    };
  if (r.hold_person_id !== null)
    return {
      kind: 'vorgemerkt',
      person: {
        id: r.hold_person_id,
        slug: r.hold_person_slug!,
        vorname: r.hold_vorname!,
        nachname: r.hold_nachname!,
      },
    };
  return { kind: 'verfuegbar' };
}

/** The latest of the copy's version and the moments its status changed (a renewal, a hold made ready). */
function changedAt(r: CopyRow): Date {
  // updated_at is never null, so there is always a latest.
  return latestStamp([r.updated_at, r.borrowed_at, r.renewed_at, r.ready_at])!;
}

export interface CopyRecord extends Copy {
  readonly deleted: boolean;
}

function copyOf(r: CopyRow): CopyRecord {
  return {
    id: r.id,
    slug: String(r.nummer),
    nummer: r.nummer,
    werk: { id: r.work_id, slug: r.work_slug, titel: r.titel },
    signatur: r.signatur,
    barcode: r.barcode,
    standort: r.standort,
    status: statusOf(r),
    updatedAt: new Date(r.updated_at),
    changedAt: changedAt(r),
    deleted: r.deleted_at !== null,
  };
}

async function personsById(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, PersonRef>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('persons')
    .select(['id', 'slug', 'vorname', 'nachname'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((p) => [p.id, p]));
}

/**
 * The copies as the work's queue is at `at` (settle.ts): a copy whose hold ran out is free, or
 * kept for the next in the queue from the moment it ran out; its Last-Modified is at least that
 * moment, and a kept copy is fresh until its hold runs out.
 */
async function asOf(db: Kysely<DB>, workId: number, records: CopyRecord[], clock: ReadClock) {
  const at = clock.now();
  const queue = settle(await openHolds(db, workId), [], at, clock.holdDays).holds;
  const keeping = new Map<number, SettledHold>();
  const ranOut = new Map<number, string>();
  for (const h of queue) {
    if (h.copyId === null) continue;
    if (h.endedAt === null) keeping.set(h.copyId, h);
    else if (h.endedAt > (ranOut.get(h.copyId) ?? '')) ranOut.set(h.copyId, h.endedAt);
  }
  const passedOn = records.filter((c) => ranOut.has(c.id) && keeping.has(c.id));
  const persons = await personsById(
    db,
    passedOn.map((c) => keeping.get(c.id)!.personId),
  );
  return records.map((c): CopyRecord => {
    const kept = keeping.get(c.id);
    const freshUntil = kept?.expiresAt ? { freshUntil: new Date(kept.expiresAt) } : {};
    const endedAt = ranOut.get(c.id);
    if (endedAt === undefined || c.status.kind !== 'vorgemerkt') return { ...c, ...freshUntil };
    const person = kept && persons.get(kept.personId);
    const status: CopyStatus = person ? { kind: 'vorgemerkt', person } : { kind: 'verfuegbar' };
    const changed = latestStamp([c.changedAt.toISOString(), endedAt, kept?.readyAt])!;
    return { ...c, status, changedAt: changed, ...freshUntil };
  });
}

/** The records of copy rows, as of the clock's moment. */
async function recordsOf(
  db: Kysely<DB>,
  workId: number,
  rows: readonly CopyRow[],
  clock: ReadClock,
): Promise<CopyRecord[]> {
  const records = rows.map(copyOf);
  // Only a work with a copy kept for a hold has anything that changes with the clock.
  return rows.some((r) => r.hold_person_id !== null) ? asOf(db, workId, records, clock) : records;
}

/** Every copy of a work, withdrawn ones too, by number, as of the clock's moment. */
export async function copiesOfWork(db: Kysely<DB>, workId: number, clock: ReadClock): Promise<CopyRecord[]> {
  return recordsOf(db, workId, await BY_WORK.execute(db, { work: workId }), clock);
}

const live = (records: readonly CopyRecord[]): Copy[] =>
  records.filter((c) => !c.deleted).map(({ deleted: _d, ...c }) => c);

/** The live copies of a work, for the work's page and the copies list. */
export async function liveCopies(db: Kysely<DB>, workId: number, clock: ReadClock): Promise<Copy[]> {
  return live(await copiesOfWork(db, workId, clock));
}

/** The live copies `liveCopiesJson` brought with the work's row, as of the clock's moment. */
export async function liveCopiesFromJson(
  db: Kysely<DB>,
  workId: number,
  json: CopiesJson,
  clock: ReadClock,
): Promise<Copy[]> {
  const rows = parseJsonRows(json).map(
    (values) =>
      Object.fromEntries(COPY_COLUMNS.map(([alias], i) => [alias, values[i]])) as unknown as CopyRow,
  );
  return live(await recordsOf(db, workId, rows, clock));
}
