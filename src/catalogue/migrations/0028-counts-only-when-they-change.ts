// PostgreSQL: the live row counts (migration 0005) and the public persons' count (0013) are
// updated only when a statement changes them (ADR 0088). Their update triggers added a delta to
// the count's row for every UPDATE of a person or work — mostly 0, yet a row lock all those
// writers queued on until commit, like the change counter: an edit of one work and a borrow
// of another (each moves its work's or persons' versions) waited for each other. Creates and
// deletes still move a count, and so still queue on its row. SQLite admits one writer anyway.
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

const live = (rows: string) => sql.raw(`(select count(*) from ${rows} where deleted_at is null)`);
const publicLive = (rows: string) =>
  sql.raw(`(select count(*) from ${rows} where deleted_at is null and public = 1)`);

/** [trigger function, count row, the statement's delta]. */
const UPDATE_COUNTS: [string, string, RawBuilder<unknown>][] = [
  ['persons_update_live_count', 'persons', sql`${live('new_rows')} - ${live('old_rows')}`],
  ['works_update_live_count', 'works', sql`${live('new_rows')} - ${live('old_rows')}`],
  [
    'persons_update_public_count',
    'public_persons',
    sql`${publicLive('new_rows')} - ${publicLive('old_rows')}`,
  ],
];

async function define(db: Db, onlyWhenChanged: boolean): Promise<void> {
  for (const [fn, name, delta] of UPDATE_COUNTS) {
    const body = onlyWhenChanged
      ? sql`declare d bigint := ${delta};
        begin if d <> 0 then update live_row_counts set n = n + d where name = ${sql.lit(name)}; end if; return null; end`
      : sql`begin update live_row_counts set n = n + ${delta} where name = ${sql.lit(name)}; return null; end`;
    await sql`create or replace function ${sql.id(fn)}() returns trigger language plpgsql as $$ ${body} $$`.execute(
      db,
    );
  }
}

export function countsOnlyWhenTheyChange({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      if (pg) await define(db, true);
    },
    async down(db: Db) {
      if (pg) await define(db, false);
    },
  };
}
