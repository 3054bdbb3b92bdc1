// The store side of compare-and-set (ADR 0021), shared by the persons, works and copies stores:
// the tables carry `id`, `updated_at` and `deleted_at` with the same meaning.
import type { Kysely, Updateable } from 'kysely';
import { param, prepare, type PreparedQuery } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { lockShowing, STAFF_SUBJECT } from '../changes.ts';
import { RECORD_KINDS, type VersionedTable } from '../registry/index.ts';
import {
  ChangedMeanwhileError,
  compareAndSet,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
} from './compare-and-set.ts';

export type { VersionedTable };

/**
 * Moves the live row's `updated_at` from `previous` to the next value, or throws
 * ChangedMeanwhileError when it no longer has `previous` (another write came first). `also`:
 * further columns written by the same statement (one statement, one run of the row's triggers).
 */
export async function claimRow<T extends VersionedTable>(
  trx: Kysely<DB>,
  table: T,
  id: number,
  previous: string,
  now: string,
  also?: Omit<Updateable<DB[T]>, 'updated_at'>,
): Promise<string> {
  const at = nextUpdatedAt(now, previous);
  // As Kysely's set(): a column given as undefined is not written.
  const fields = Object.fromEntries(Object.entries(also ?? {}).filter(([, v]) => v !== undefined));
  const claimed = await claimOf(table, Object.keys(fields)).execute(trx, {
    ...fields,
    [CLAIM.id]: id,
    [CLAIM.previous]: previous,
    [CLAIM.at]: at,
  });
  if (claimed.length === 0) throw new ChangedMeanwhileError(`${RECORD_KINDS[table].one} ${id}`);
  return at;
}

/** The claim's own parameters, named apart from any column. */
const CLAIM = { id: '$id', previous: '$previous', at: '$at' } as const;

/**
 * The claim of a table with these further columns, prepared once (ADR 0068): a write's one
 * update is not parsed and planned again on every write.
 */
const claims = new Map<string, PreparedQuery<Record<string, unknown>, { id: number }, DB>>();

function claimOf(table: VersionedTable, columns: readonly string[]) {
  const key = `${table}:${columns.join(',')}`;
  let claim = claims.get(key);
  if (!claim) {
    claim = prepare<Record<string, unknown>, { id: number }, DB>((db: Kysely<DB>) =>
      db
        .updateTable(table)
        .set({
          ...Object.fromEntries(columns.map((c) => [c, param(c)])),
          updated_at: param<string>(CLAIM.at),
        } as Updateable<DB[VersionedTable]>)
        .where('id', '=', param<number>(CLAIM.id))
        .where('updated_at', '=', param<string>(CLAIM.previous))
        .where('deleted_at', 'is', null)
        .returning('id'),
    );
    claims.set(key, claim);
  }
  return claim;
}

/** Marks a live row deleted (→ 410), compare-and-set against `expect`; false when there is none. */
export function softDelete(
  db: Kysely<DB>,
  table: VersionedTable,
  id: number,
  expect: WriteExpectation | undefined,
  now: () => string,
  /** What else showed the row and so gets a new version (shared/versions.ts). */
  touchShowing?: (trx: Kysely<DB>, id: number, at: string) => Promise<void>,
  /**
   * Refuses the delete by throwing (a person with open loans, ADR 0061): run under the change
   * counter's lock, after the row was found, so no write can change what it checked until commit.
   */
  guard?: (trx: Kysely<DB>, id: number) => Promise<void>,
): Promise<boolean> {
  const expected = expectedText(expect);
  return compareAndSet(expected, () =>
    db.transaction().execute(async (trx) => {
      // A person's delete may take the last staff account with it (ADR 0077): under STAFF_SUBJECT.
      const staff = table === 'persons' ? [STAFF_SUBJECT] : [];
      await lockShowing(trx, table, id, staff);
      const current = await trx
        .selectFrom(table)
        .select('updated_at')
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!current) return false;
      await guard?.(trx, id);
      const at = await claimRow(trx, table, id, expected ?? current.updated_at, now());
      await trx.updateTable(table).set({ deleted_at: at }).where('id', '=', id).execute();
      await touchShowing?.(trx, id, at);
      return true;
    }),
  );
}
