// Search that stays fast on large catalogues (docs/decisions/0045-search-plans.md). SQLite: the
// FTS5 tables get prefix indexes for words of 1 to 8 letters (was 2 and 3), so a search word of
// that length tests a row with one lookup instead of merging every term that starts with it, and
// fts5vocab tables (longer words are expanded into the index's exact terms that start with them);
// the rebuilt index is optimized into one segment, which makes each lookup cheaper. PostgreSQL:
// the GIN indexes stop using a pending list (fastupdate), which every search had to scan in full
// (≈ 30 ms after a bulk load, for a word with 2 hits); writes update the index directly instead.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** Recreates `<table>_fts` with the given prefix indexes and fills it from `search_text`. */
async function rebuildFts(db: Db, table: string, prefix: string): Promise<void> {
  const fts = `${table}_fts`;
  // The sync triggers on `table` name the FTS table; they work again once it exists.
  await sql.raw(`drop table ${fts}`).execute(db);
  await sql
    .raw(
      `create virtual table ${fts} using fts5(search_text, content='${table}', content_rowid='id',
      tokenize='unicode61 remove_diacritics 2', prefix='${prefix}')`,
    )
    .execute(db);
  await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(db);
  await sql.raw(`insert into ${fts}(${fts}) values ('optimize')`).execute(db);
}

/** PostgreSQL: GIN's fastupdate off (and the pending list flushed into the index), or back on. */
async function ginWithoutPendingList(db: Db, fastupdate: boolean): Promise<void> {
  for (const index of ['persons_search', 'works_search']) {
    await sql`alter index ${sql.id(index)} set (fastupdate = ${sql.raw(fastupdate ? 'on' : 'off')})`.execute(
      db,
    );
    if (!fastupdate) await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}

export function searchIndexes({ dialect }: MigrationContext): Migration {
  return {
    async up(db: Db) {
      if (dialect === 'postgres') return ginWithoutPendingList(db, false);
      for (const table of ['persons', 'works']) {
        await rebuildFts(db, table, '1 2 3 4 5 6 7 8');
        await sql
          .raw(`create virtual table ${table}_fts_vocab using fts5vocab(${table}_fts, row)`)
          .execute(db);
      }
    },
    async down(db: Db) {
      if (dialect === 'postgres') return ginWithoutPendingList(db, true);
      for (const table of ['persons', 'works']) {
        await sql.raw(`drop table ${table}_fts_vocab`).execute(db);
        await rebuildFts(db, table, '2 3');
      }
    },
  };
}
