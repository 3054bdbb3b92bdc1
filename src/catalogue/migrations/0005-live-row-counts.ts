// The number of live (not deleted) persons and works, kept by triggers (ADR 0025): a list
// states its total, and counting a million index entries per page (50–300 ms) would make every
// page cost what the whole table does. Triggers keep the count in the write's own transaction,
// so no write path can forget it and a rollback takes it back.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** The tables whose live rows are counted; the row of `live_row_counts` is named after each. */
export const LIVE_COUNTED_TABLES = ['persons', 'works'] as const;

const live = (row: 'new' | 'old') => sql.raw(`${row}.deleted_at is null`);

async function sqliteTriggers(db: Db, table: string): Promise<void> {
  const add = (name: string, event: string, when: ReturnType<typeof sql.raw>, delta: number) =>
    sql`create trigger ${sql.id(`${table}_${name}_live_count`)} after ${sql.raw(event)} on ${sql.table(table)}
      when ${when}
      begin update live_row_counts set n = n + ${sql.raw(String(delta))} where name = ${sql.lit(table)}; end`.execute(
      db,
    );
  await add('insert', 'insert', live('new'), 1);
  await add('delete', 'delete', live('old'), -1);
  await add(
    'revive',
    'update of deleted_at',
    sql.raw(`old.deleted_at is not null and new.deleted_at is null`),
    1,
  );
  await add(
    'retire',
    'update of deleted_at',
    sql.raw(`old.deleted_at is null and new.deleted_at is not null`),
    -1,
  );
}

// PostgreSQL: statement triggers with transition tables, so a bulk load of a million rows
// updates the count once, not a million times (each update of a row leaves a dead tuple).
async function postgresTriggers(db: Db, table: string): Promise<void> {
  const fn = (name: string) => sql.id(`${table}_${name}_live_count`);
  const counted = sql.lit(table);
  const bodies = {
    insert: sql`(select count(*) from new_rows where deleted_at is null)`,
    delete: sql`-(select count(*) from old_rows where deleted_at is null)`,
    update: sql`(select count(*) from new_rows where deleted_at is null) - (select count(*) from old_rows where deleted_at is null)`,
  };
  for (const [op, delta] of Object.entries(bodies)) {
    await sql`create function ${fn(op)}() returns trigger language plpgsql as $$
      begin update live_row_counts set n = n + ${delta} where name = ${counted}; return null; end $$`.execute(
      db,
    );
    const transition =
      op === 'insert'
        ? sql`new table as new_rows`
        : op === 'delete'
          ? sql`old table as old_rows`
          : sql`old table as old_rows new table as new_rows`;
    await sql`create trigger ${fn(op)} after ${sql.raw(op)} on ${sql.table(table)}
      referencing ${transition} for each statement execute function ${fn(op)}()`.execute(db);
  }
  await sql`create function ${fn('truncate')}() returns trigger language plpgsql as $$
    begin update live_row_counts set n = 0 where name = ${counted}; return null; end $$`.execute(db);
  await sql`create trigger ${fn('truncate')} after truncate on ${sql.table(table)}
    for each statement execute function ${fn('truncate')}()`.execute(db);
}

export function liveRowCounts({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      await db.schema
        .createTable('live_row_counts')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      for (const table of LIVE_COUNTED_TABLES) {
        await sql`insert into live_row_counts (name, n)
          select ${sql.lit(table)}, count(*) from ${sql.table(table)} where deleted_at is null`.execute(db);
        await (pg ? postgresTriggers(db, table) : sqliteTriggers(db, table));
      }
    },

    async down(db: Db) {
      for (const table of LIVE_COUNTED_TABLES) {
        const ops = pg
          ? ['insert', 'delete', 'update', 'truncate']
          : ['insert', 'delete', 'revive', 'retire'];
        for (const op of ops) {
          const name = `${table}_${op}_live_count`;
          if (pg) {
            await sql`drop trigger if exists ${sql.id(name)} on ${sql.table(table)}`.execute(db);
            await sql`drop function if exists ${sql.id(name)}()`.execute(db);
          } else await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
        }
      }
      await db.schema.dropTable('live_row_counts').ifExists().execute();
    },
  };
}
