// `works.exemplare` is the number of the work's live copies (issue 12): whoever adds or
// withdraws copies writes it in the same transaction, so reading a work needs no count of its
// copies. A work written with `exemplare` (POST/PUT of the work, as before copies were
// resources) gets copies with a generated shelfmark, or loses free ones, highest number first.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { isFreeCopy } from './free.ts';
import { barcodeFor, signaturFor } from './signatur.ts';

/**
 * A write refused for copies in use (→ 409 SHELFMARK_COPY_ON_LOAN, nothing written): DELETE of a
 * work with a copy on loan, PUT of fewer `exemplare` than copies free, withdrawing a copy that
 * is lent or kept for a hold.
 */
export class CopiesOnLoanError extends Error {
  override readonly name = 'CopiesOnLoanError';
}

/** The number of live copies, written to `works.exemplare`. */
export async function syncCopyCount(trx: Kysely<DB>, workId: number, known?: number): Promise<number> {
  const n = known ?? (await liveCopies(trx, workId));
  // Only a count that differs is written: an unchanged row fires no row trigger (change log).
  await trx
    .updateTable('works')
    .set({ exemplare: n })
    .where('id', '=', workId)
    .where('exemplare', '<>', n)
    .execute();
  return n;
}

/** The number of live copies of the outer query's `works` row, as a subquery. */
export function liveCopyCount(db: Kysely<DB>) {
  return db
    .selectFrom('copies')
    .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
    .where(sql<boolean>`copies.work_id = works.id`)
    .where('deleted_at', 'is', null);
}

async function liveCopies(trx: Kysely<DB>, workId: number): Promise<number> {
  const row = await trx
    .selectFrom('works')
    .select(liveCopyCount(trx).as('n'))
    .where('id', '=', workId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether an open loan lends one of the work's copies (or, from tools without copies, the work). */
export async function hasCopyOnLoan(trx: Kysely<DB>, workId: number): Promise<boolean> {
  const open = await trx
    .selectFrom('loans')
    .select('id')
    .where('work_id', '=', workId)
    .where('returned_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return open !== undefined;
}

/** The next free `nummer` of a work (withdrawn copies keep theirs: their loans name them). */
export async function nextNummer(trx: Kysely<DB>, workId: number): Promise<number> {
  const row = await trx
    .selectFrom('copies')
    .select((eb) => eb.fn.max('nummer').as('n'))
    .where('work_id', '=', workId)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

/** A barcode no copy has yet: `SM{work}-{nummer}`, with a suffix if staff already used that. */
export async function freshBarcode(trx: Kysely<DB>, workId: number, nummer: number): Promise<string> {
  const base = barcodeFor(workId, nummer);
  for (let k = 1; ; k += 1) {
    const candidate = k === 1 ? base : `${base}-${k}`;
    const taken = await trx
      .selectFrom('copies')
      .select('id')
      .where('barcode', '=', candidate)
      .executeTakeFirst();
    if (!taken) return candidate;
  }
}

export interface CountTarget {
  readonly workId: number;
  readonly titel: string;
  /** The first author's surname, for the shelfmark; null: none. */
  readonly nachname: string | null;
  readonly wanted: number;
  readonly at: string;
  readonly standort?: string;
  /**
   * Run once the count is known to change, before the free copies are chosen: a replace
   * settles the hold queue here (a copy whose hold ran out is free to withdraw). An unchanged
   * count has no need of it, and is spared its statements.
   */
  readonly beforeChange?: () => Promise<unknown>;
  /**
   * The work's live copies and its stored `exemplare`, when the caller read them under the work's
   * lock (its replace does, in the statement that reads the work): spares their two statements
   * when nothing changes.
   */
  readonly known?: { readonly live: number; readonly stored: number };
}

/**
 * Adds or withdraws copies until the work has `wanted` live ones. Only free copies are
 * withdrawn; 'copies-on-loan' (nothing written) when too few are free; 'unchanged' when it had
 * them already (then only a count that drifted is written).
 */
export async function setCopyCount(
  trx: Kysely<DB>,
  t: CountTarget,
): Promise<'ok' | 'unchanged' | 'copies-on-loan'> {
  const have = t.known?.live ?? (await liveCopies(trx, t.workId));
  if (have === t.wanted) {
    if (t.known?.stored !== have) await syncCopyCount(trx, t.workId, have);
    return 'unchanged';
  }
  await t.beforeChange?.();
  if (have > t.wanted) {
    const free = await trx
      .selectFrom('copies')
      .select('copies.id')
      .where('copies.work_id', '=', t.workId)
      .where(isFreeCopy())
      .orderBy('copies.nummer', 'desc')
      .limit(have - t.wanted)
      .execute();
    if (free.length < have - t.wanted) return 'copies-on-loan';
    await trx
      .updateTable('copies')
      .set({ deleted_at: t.at, updated_at: t.at })
      .where(
        'id',
        'in',
        free.map((c) => c.id),
      )
      .execute();
  } else {
    for (let nummer = await nextNummer(trx, t.workId), n = have; n < t.wanted; nummer += 1, n += 1) {
      await trx
        .insertInto('copies')
        .values({
          work_id: t.workId,
          nummer,
          signatur: signaturFor(t.nachname, t.workId, t.titel, nummer),
          barcode: await freshBarcode(trx, t.workId, nummer),
          standort: t.standort ?? 'Freihand',
          missing_since: null,
          created_at: t.at,
          updated_at: t.at,
        })
        .execute();
    }
  }
  await syncCopyCount(trx, t.workId, t.wanted);
  return 'ok';
}
