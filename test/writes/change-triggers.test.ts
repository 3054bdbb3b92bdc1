// The representation cache sees only writes that a trigger records (ADR 0088): a table a cached
// representation reads must name its rows' subjects in `change_log`, or move the change counter
// (everything changed). This test reads the migrated schema of each engine and fails for a
// table that has neither kind of trigger for every write (insert, update, delete) and is not
// listed below as shown by no cached representation (with why). A new table must be put in
// one place or the other.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { catalogueTestTargets } from '../kit/catalogue/targets.ts';
import { CHANGE_SUBJECTS } from '../../src/catalogue/migrations/0029-subjects-by-what-changed.ts';
import type { DB } from '../../src/catalogue/tables.ts';

/** Tables no cacheable representation shows, and why. */
const NOT_SHOWN: Record<string, string> = {
  change_counter: 'the cache’s own bookkeeping',
  change_log: 'the cache’s own bookkeeping',
  change_log_horizon: 'the cache’s own bookkeeping',
  kysely_migration: 'the migrator’s',
  kysely_migration_lock: 'the migrator’s',
  sqlite_sequence: 'SQLite’s',
  live_row_counts: 'derived by triggers from persons and works, whose writes the lists depend on',
  live_row_count_folded: 'PostgreSQL’s live_row_counts (a view over this and the deltas, migration 0030)',
  live_row_count_deltas:
    'PostgreSQL’s live_row_counts (a view over this and the folded counts, migration 0030)',
  login_failures: 'a limit reached moves the counter (ADR 0069); failures below it change no answer',
  sessions: 'the session resource is not cacheable',
  password_resets: 'shown by no cacheable resource',
  notices: 'shown by no cacheable resource',
  server_settings: 'read once at start',
};
/** Search indexes derived from `search_text` and sort keys of persons and works (tracked). */
const DERIVED = /^(persons|works)_(fts|ranked_fts|terms|term)/;

async function triggersByTable(db: Kysely<DB>, dialect: string): Promise<Map<string, Set<string>>> {
  const seen = new Map<string, Set<string>>();
  const add = (table: string, events: string[]) => {
    const set = seen.get(table) ?? new Set<string>();
    for (const e of events) set.add(e.toLowerCase());
    seen.set(table, set);
  };
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ tbl_name: string; sql: string }>`
      select tbl_name, sql from sqlite_master where type = 'trigger'`.execute(db);
    for (const row of rows) {
      if (!/change_log|change_counter/.test(row.sql)) continue;
      const event = /\b(?:after|before)\s+(insert|update|delete)\b/i.exec(row.sql)?.[1];
      if (event) add(row.tbl_name, [event]);
    }
  } else {
    // Trigger functions that write change_log or move the counter, by the events they fire on.
    const { rows } = await sql<{ tbl: string; events: string }>`
      select c.relname as tbl, pg_get_triggerdef(t.oid) as events
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace
        and (p.prosrc like '%change_log%' or p.prosrc like '%change_counter%')`.execute(db);
    for (const row of rows)
      add(
        row.tbl,
        [...row.events.matchAll(/\b(INSERT|UPDATE|DELETE)\b/g)].map((m) => m[1]!),
      );
  }
  return seen;
}

async function tablesOf(db: Kysely<DB>, dialect: string): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.map((r) => r.name);
}

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`change triggers (${target.dialect})`, { skip: target.skip }, () => {
    test('every table a cached representation may read records its writes', async () => {
      const database = await target.open();
      try {
        const triggers = await triggersByTable(database.db, target.dialect);
        const missing: string[] = [];
        for (const table of await tablesOf(database.db, target.dialect)) {
          if (table in NOT_SHOWN || DERIVED.test(table)) continue;
          const events = triggers.get(table) ?? new Set();
          const lacking = ['insert', 'update', 'delete'].filter((e) => !events.has(e));
          if (lacking.length > 0) missing.push(`${table} (no trigger on ${lacking.join(', ')})`);
        }
        assert.deepEqual(
          missing,
          [],
          'tables without change triggers: add them to a migration or to NOT_SHOWN',
        );
        // The finer ones: each table with subjects writes change_log itself.
        for (const table of Object.keys(CHANGE_SUBJECTS)) assert.ok(triggers.has(table), table);
      } finally {
        await database.dispose();
      }
    });
  });
}
