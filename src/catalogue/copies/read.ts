// Reading a work's copies with their derived status: one prepared statement per work (ADR
// 0047) that brings every copy, withdrawn ones too (their URL answers 410), with the open loan
// and the ready hold that name it. The work page and the copy resources both read through it.
import type { Kysely } from 'kysely';
import { param, prepare } from '../../storage/index.ts';
import { latestStamp } from '../shared/versions.ts';
import type { DB } from '../tables.ts';
import type { Copy, CopyStatus } from './model.ts';

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

const BY_WORK = prepare<{ work: number }, CopyRow, DB>((db: Kysely<DB>) =>
  db
    .selectFrom('copies')
    .innerJoin('works', 'works.id', 'copies.work_id')
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
    .leftJoin('persons as hp', 'hp.id', 'holds.person_id')
    .select([
      'copies.id',
      'copies.nummer',
      'copies.signatur',
      'copies.barcode',
      'copies.standort',
      'copies.missing_since',
      'copies.updated_at',
      'copies.deleted_at',
      'works.id as work_id',
      'works.slug as work_slug',
      'works.titel',
      'loans.id as loan_id',
      'loans.due_at',
      'loans.borrowed_at',
      'loans.renewed_at',
      'lp.id as loan_person_id',
      'lp.slug as loan_person_slug',
      'lp.vorname as loan_vorname',
      'lp.nachname as loan_nachname',
      'holds.ready_at',
      'hp.id as hold_person_id',
      'hp.slug as hold_person_slug',
      'hp.vorname as hold_vorname',
      'hp.nachname as hold_nachname',
    ])
    .where('copies.work_id', '=', param<number>('work'))
    .orderBy('copies.nummer'),
);

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

/** Every copy of a work, withdrawn ones too, by number. */
export async function copiesOfWork(db: Kysely<DB>, workId: number): Promise<CopyRecord[]> {
  return (await BY_WORK.execute(db, { work: workId })).map(copyOf);
}

/** The live copies of a work, for the work's page and the copies list. */
export async function liveCopies(db: Kysely<DB>, workId: number): Promise<Copy[]> {
  return (await copiesOfWork(db, workId)).filter((c) => !c.deleted).map(({ deleted: _d, ...c }) => c);
}
