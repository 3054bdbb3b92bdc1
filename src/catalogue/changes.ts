// The database's change counter (migration 0003): the version the representation cache checks
// before every cacheable GET (ADR 0048). One prepared single-row read.
import type { Kysely } from 'kysely';
import { prepare } from '../storage/index.ts';
import type { DB } from './tables.ts';

const COUNTER = prepare<Record<string, never>, { n: string | number }, DB>((db: Kysely<DB>) =>
  db.selectFrom('change_counter').select('n').where('id', '=', 1),
);

/** The counter's current value; it differs after any write committed since the last read. */
export async function changeCount(db: Kysely<DB>): Promise<string> {
  const row = await COUNTER.executeTakeFirst(db, {});
  if (!row) throw new Error('change_counter has no row: is the database migrated?');
  return String(row.n);
}
