// The database's change counter (migration 0003): the version the representation cache checks
// before every cacheable GET (ADR 0048). One prepared single-row read.
import type { Kysely } from 'kysely';
import { detectDialect, prepare, sharedRead, type Database } from '../storage/index.ts';
import type { DB } from './tables.ts';

const COUNTER = prepare<Record<string, never>, { n: string | number }, DB>((db: Kysely<DB>) =>
  db.selectFrom('change_counter').select('n').where('id', '=', 1),
);

/**
 * Takes the counter's row lock now, as a write transaction's first step (PostgreSQL; SQLite
 * admits one writer anyway). Every statement that writes a catalogue table takes it first
 * (migration 0009, ADR 0055); a transaction that locks a row with `SELECT … FOR UPDATE` must
 * take it before that too, or it could hold the row while waiting for a writer that needs it.
 * Taken before the reads a write depends on (a generated slug is free, the row still has the
 * version the caller saw), no other writer can change them until this one commits.
 */
export async function lockChangeCounter(trx: Kysely<DB>): Promise<void> {
  if (detectDialect(trx) !== 'postgres') return;
  await trx.selectFrom('change_counter').select('n').where('id', '=', 1).forUpdate().execute();
}

function valueOf(row: { n: unknown } | undefined): string {
  if (!row) throw new Error('change_counter has no row: is the database migrated?');
  return String(row.n);
}

/** The counter's current value; it differs after any write committed since the last read. */
export async function changeCount(db: Kysely<DB>): Promise<string> {
  return valueOf(await COUNTER.executeTakeFirst(db, {}));
}

/**
 * The counter as the representation cache reads it before every cacheable GET (ADR 0048):
 * on SQLite, while nothing else uses the connection, the same statement run at once without
 * the queue and its promises (ADR 0066); else — and always on PostgreSQL — changeCount, one
 * read shared by the callers who asked while the previous one ran (sharedRead, ADR 0068:
 * never a read that started before a caller asked, so it still sees every write acknowledged
 * before the request came in).
 */
export function changeCounter(database: Database<DB>): () => string | Promise<string> {
  const { readNow, db } = database;
  const shared = sharedRead(() => changeCount(db));
  if (readNow === undefined) return shared;
  const { sql, parameters } = db.selectFrom('change_counter').select('n').where('id', '=', 1).compile();
  return () => {
    const rows = readNow(sql, parameters);
    return rows === undefined ? shared() : valueOf(rows[0] as { n: unknown } | undefined);
  };
}

/**
 * Moves the counter without changing anything else: every process's representation cache drops
 * what it holds at its next request. For a change the cache's version would not see otherwise:
 * a log-in limit reached, after which no remembered Basic answer may be served (ADR 0069).
 */
export async function bumpChangeCounter(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable('change_counter')
    .set((eb) => ({ n: eb('n', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}
