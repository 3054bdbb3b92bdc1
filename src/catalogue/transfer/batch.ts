// What the writers of one batch share: the transaction, the batch's time, the rows it created
// (their first version already shows what else the batch links to them), and the outcome of
// each line.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import type { TransferRecord } from './records.ts';

export type Outcome = 'new' | 'changed' | 'unchanged' | { readonly reason: string };

export interface Line<R extends TransferRecord = TransferRecord> {
  /** Where the record starts in its file (1-based). */
  readonly line: number;
  readonly record: R;
}

export interface Batch {
  readonly trx: Kysely<DB>;
  /** `updated_at`/`created_at` of what this batch writes. */
  readonly at: string;
  /** Persons and works inserted by this batch: linking them needs no new version of them. */
  readonly newPersons: Set<number>;
  readonly newWorks: Set<number>;
  readonly outcomes: Map<number, Outcome>;
}

/** Rows per multi-row INSERT: well under SQLite's limit of bound parameters. */
export const INSERT_CHUNK = 250;

export function chunks<T>(items: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The last line of each key (a later line for the same key wins, as if applied in turn); the
 * earlier ones are recorded as unchanged: what they said is replaced within the same batch.
 */
export function lastPerKey<R extends TransferRecord>(
  batch: Batch,
  lines: readonly Line<R>[],
  key: (record: R) => string,
): Line<R>[] {
  const last = new Map<string, Line<R>>();
  for (const line of lines) {
    const earlier = last.get(key(line.record));
    if (earlier) batch.outcomes.set(earlier.line, 'unchanged');
    last.set(key(line.record), line);
  }
  return [...last.values()];
}

/** Sets `updated_at` of rows to given values, one statement per distinct value. */
export async function setVersions(
  trx: Kysely<DB>,
  table: 'persons' | 'works',
  versions: ReadonlyMap<number, string>,
): Promise<void> {
  const byValue = new Map<string, number[]>();
  for (const [id, value] of versions) {
    const ids = byValue.get(value);
    if (ids) ids.push(id);
    else byValue.set(value, [id]);
  }
  for (const [value, ids] of byValue)
    for (const part of chunks(ids, 500))
      await trx.updateTable(table).set({ updated_at: value }).where('id', 'in', part).execute();
}

/** `query` for each part of `keys` (an IN list of at most 500), one after the other, rows joined. */
export async function selectIn<K, T>(keys: readonly K[], query: (part: K[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (const part of chunks(keys, 500)) rows.push(...(await query(part)));
  return rows;
}
