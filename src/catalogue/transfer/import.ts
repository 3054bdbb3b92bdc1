// Imports a stream of records in batches (docs/decisions/0064-import-and-export.md). Each batch
// is one transaction that takes the change counter first (ADR 0055) and writes persons, then
// works, then copies, then accounts, so a work may name a person given earlier in its batch. A
// batch the database refuses as a whole (a constraint the checks did not foresee) is written
// again one record per transaction, so the good records get in and the bad one is named; a
// database that is busy or gone stops the import (batches before it stay written). List ranks
// are placed once at the end, not per batch (storage/list-rank.ts: until then searches take the
// plans for unranked rows). Nothing here holds more than one batch, whatever the file's size.
import { sql, type Kysely } from 'kysely';
import {
  detectCapabilities,
  detectDialect,
  placeUnranked,
  TransientStorageError,
} from '../../storage/index.ts';
import { lockSubjects } from '../changes.ts';
import type { DB } from '../tables.ts';
import type { Batch, Line, Outcome } from './batch.ts';
import type {
  AccountRecord,
  CopyRecord,
  PersonRecord,
  RecordType,
  TransferRecord,
  WorkRecord,
} from './records.ts';
import { writeAccounts } from './write-accounts.ts';
import { writeCopies } from './write-copies.ts';
import { writePersons } from './write-persons.ts';
import { writeWorks } from './write-works.ts';
import { settlePersonRefs, settleSlugs, settleWorkRefs } from './external-ids.ts';

/**
 * One record read from a file, or the reason a line is none. `line` orders and names the items
 * (unique and rising); `at` says where an item is when a line number does not (MARCXML: several
 * items per record, "record 3 (line 45)").
 */
export type ImportItem =
  | { readonly line: number; readonly at?: string; readonly record: TransferRecord }
  | { readonly line: number; readonly at?: string; readonly reason: string };

export interface Counts {
  new: number;
  changed: number;
  unchanged: number;
}

export interface ImportSummary {
  readonly counts: Record<RecordType, Counts>;
  /** Lines not imported (each was reported through `onBad`). */
  bad: number;
}

export interface ImportOptions {
  /** Records per transaction (default 1,000). */
  readonly batchSize?: number;
  readonly now?: () => string;
  /** Called for every line not imported, in line order within a batch. */
  readonly onBad?: (line: number, reason: string, at?: string) => void;
  /** Called after each batch with the last line it held. */
  readonly onBatch?: (lastLine: number) => void;
}

export const DEFAULT_BATCH = 1000;

/**
 * PostgreSQL plans each batch's statements, its triggers' among them, from the tables' column
 * statistics. Tables that grew from empty without ANALYZE (autovacuum off, or not round yet) keep
 * the plans of empty tables: a trigger's `id in (select … from new_rows)` became a sequential scan
 * of every person per batch, and a 1,000,000-work load slowed from batch to batch (33 works/s at
 * 70,000; 266/s right after one ANALYZE). So the import refreshes the statistics of the tables it
 * writes whenever the records it has written double, from STATISTICS_FROM on: a bounded share of
 * the load (each ANALYZE samples at most 30,000 rows per table), and no plan for a table a
 * hundred times smaller than it is. SQLite plans without them until the load's end.
 */
export const STATISTICS_FROM = 1000;
const GROWING_TABLES = ['persons', 'works', 'person_work', 'copies'] as const;

export async function importRecords(
  db: Kysely<DB>,
  items: AsyncIterable<ImportItem>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const size = options.batchSize ?? DEFAULT_BATCH;
  const now = options.now ?? (() => new Date().toISOString());
  const zero = () => ({ new: 0, changed: 0, unchanged: 0 });
  const summary: ImportSummary = {
    counts: { person: zero(), work: zero(), copy: zero(), account: zero() },
    bad: 0,
  };
  let pending: ImportItem[] = [];
  let written = 0;
  let analyzedAt = 0;
  const analyze = detectDialect(db) === 'postgres';
  const flush = async () => {
    if (pending.length === 0) return;
    const outcomes = await writeBatch(db, pending, now);
    for (const item of pending) {
      const outcome = 'reason' in item ? { reason: item.reason } : (outcomes.get(item.line) ?? 'unchanged');
      if (typeof outcome === 'object') {
        summary.bad += 1;
        options.onBad?.(item.line, outcome.reason, item.at);
      } else if ('record' in item) {
        summary.counts[item.record.type][outcome] += 1;
        if (outcome !== 'unchanged') written += 1;
      }
    }
    if (analyze && written >= Math.max(STATISTICS_FROM, 2 * analyzedAt)) {
      await sql.raw(`analyze ${GROWING_TABLES.join(', ')}`).execute(db);
      analyzedAt = written;
    }
    options.onBatch?.(pending.at(-1)!.line);
    pending = [];
  };
  for await (const item of items) {
    pending.push(item);
    if (pending.length >= size) await flush();
  }
  await flush();
  if (written > 0) await placeRanks(db);
  return summary;
}

async function writeBatch(db: Kysely<DB>, items: readonly ImportItem[], now: () => string) {
  const lines = items.filter((i): i is Line => 'record' in i);
  try {
    return await inTransaction(db, lines, now());
  } catch (error) {
    if (error instanceof TransientStorageError) throw error;
  }
  // One transaction per record: the good ones are written, the bad one gets the database's reason.
  const outcomes = new Map<number, Outcome>();
  for (const line of lines) {
    try {
      for (const [n, outcome] of await inTransaction(db, [line], now())) outcomes.set(n, outcome);
    } catch (error) {
      if (error instanceof TransientStorageError || !(error instanceof Error)) throw error;
      outcomes.set(line.line, { reason: error.message });
    }
  }
  return outcomes;
}

function ofType<R extends TransferRecord>(lines: readonly Line[], type: R['type']): Line<R>[] {
  return lines.filter((l): l is Line<R> => l.record.type === type);
}

function inTransaction(db: Kysely<DB>, lines: readonly Line[], at: string): Promise<Map<number, Outcome>> {
  return db.transaction().execute(async (trx) => {
    // Its subjects are known only as it goes: it holds every other catalogue writer off (ADR 0088).
    await lockSubjects(trx, [], true);
    const batch: Batch = { trx, at, newPersons: new Set(), newWorks: new Set(), outcomes: new Map() };
    // Slugs first (external ids, generated ones); a work's persons after the persons are written.
    const persons = ofType<PersonRecord>(lines, 'person');
    await writePersons(
      batch,
      await settleSlugs(batch, 'person', persons, (r) => `${r.vorname} ${r.nachname}`),
    );
    const works = await settleSlugs(batch, 'work', ofType<WorkRecord>(lines, 'work'), (r) => r.titel);
    await writeWorks(batch, await settlePersonRefs(batch, works));
    await writeCopies(batch, await settleWorkRefs(batch, ofType<CopyRecord>(lines, 'copy')));
    await writeAccounts(batch, ofType<AccountRecord>(lines, 'account'));
    return batch.outcomes;
  });
}

/** Ranks the rows the import added or moved, in one transaction (SQLite; nothing on PostgreSQL). */
async function placeRanks(db: Kysely<DB>): Promise<void> {
  const capabilities = detectCapabilities(db);
  if (capabilities.fullText !== 'fts5') return;
  await db.transaction().execute(async (trx) => {
    await lockSubjects(trx, [], true);
    await placeUnranked(trx, capabilities, 'persons');
    await placeUnranked(trx, capabilities, 'works');
  });
}
