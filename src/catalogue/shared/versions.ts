// The one place where a write moves the version of the *other* resources that show what it
// changed (ADR 0024). A resource's version is its row's `updated_at`: ETag and Last-Modified of
// every representation derive from it (the ETag from the rendered bytes, Last-Modified from this
// time), so every write that changes what a representation shows must move it:
// - a work shows its persons' names and URLs, and `verfuegbar` (loans);
// - a person shows its works' titles and URLs, and its account's username.
// A stored version rather than a max computed over the rows shown, because a row that stops
// being shown (a work deleted or unlinked) leaves nothing behind to take the max over.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import { nextUpdatedAt } from './compare-and-set.ts';
import type { VersionedTable } from './claim-row.ts';

/** Moves `updated_at` of the live rows to `at`, or past their current value when that is later. */
export async function touchRows(
  trx: Kysely<DB>,
  table: VersionedTable,
  ids: readonly number[],
  at: string,
): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const row = await trx
      .selectFrom(table)
      .select('updated_at')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) continue;
    await trx
      .updateTable(table)
      .set({ updated_at: nextUpdatedAt(at, row.updated_at) })
      .where('id', '=', id)
      .execute();
  }
}

/** The ids of the persons linked to a work (its authors as shown). */
export async function personIdsOf(trx: Kysely<DB>, workId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('person_work')
    .select('person_id')
    .where('work_id', '=', workId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.person_id);
}

/** The ids of the works linked to a person. */
export async function workIdsOf(trx: Kysely<DB>, personId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('person_work')
    .select('work_id')
    .where('person_id', '=', personId)
    .execute();
  return rows.map((r) => r.work_id);
}

/** After a person's names or existence changed: every work showing it gets a new version. */
export async function touchWorksOf(trx: Kysely<DB>, personId: number, at: string): Promise<void> {
  await touchRows(trx, 'works', await workIdsOf(trx, personId), at);
}

/** After a work's title, persons or existence changed: every person showing it gets a new version. */
export async function touchPersonsOf(trx: Kysely<DB>, workId: number, at: string): Promise<void> {
  await touchRows(trx, 'persons', await personIdsOf(trx, workId), at);
}

/**
 * The latest of some ISO 8601 UTC stamps (they sort as text), ignoring missing ones and any
 * after `notAfter`; null when none is left. A list's Last-Modified is the latest moment any of
 * its rows changed.
 */
export function latestStamp(stamps: Iterable<unknown>, notAfter?: string): Date | null {
  let latest: string | undefined;
  for (const s of stamps) {
    if (typeof s !== 'string' || (notAfter !== undefined && s > notAfter)) continue;
    if (latest === undefined || s > latest) latest = s;
  }
  return latest === undefined ? null : new Date(latest);
}
