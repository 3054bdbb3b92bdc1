// One counter every committed write to the catalogue changes (ADR 0048): the representation
// cache serves a stored rendering only while the counter still has the value read before it was
// rendered. Triggers keep it, so no write path can forget it: each write transaction updates
// the one row and commits the change together with its data.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** Every table a representation shows data of. */
export const COUNTED_TABLES = [
  'persons',
  'works',
  'person_work',
  'accounts',
  'loans',
  'slug_history',
] as const;
const OPERATIONS = ['insert', 'update', 'delete'] as const;

export function changeCounter({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      await db.schema
        .createTable('change_counter')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into change_counter (id, n) values (1, 0)`.execute(db);
      if (pg) {
        await sql`create function count_change() returns trigger language plpgsql as $$
          begin update change_counter set n = n + 1; return null; end $$`.execute(db);
        for (const table of COUNTED_TABLES) {
          // Once per statement, also for TRUNCATE; the row lock serialises concurrent writers'
          // commits of the counter, which is what keeps it exact.
          await sql`create trigger ${sql.id(`${table}_count_change`)}
            after insert or update or delete or truncate on ${sql.table(table)}
            for each statement execute function count_change()`.execute(db);
        }
        return;
      }
      // SQLite triggers are per row; the counter row stays in the page cache.
      for (const table of COUNTED_TABLES) {
        for (const op of OPERATIONS) {
          await sql`create trigger ${sql.id(`${table}_${op}_count_change`)} after ${sql.raw(op)} on ${sql.table(table)}
            begin update change_counter set n = n + 1; end`.execute(db);
        }
      }
    },

    async down(db: Db) {
      for (const table of COUNTED_TABLES) {
        if (pg)
          await sql`drop trigger if exists ${sql.id(`${table}_count_change`)} on ${sql.table(table)}`.execute(
            db,
          );
        else
          for (const op of OPERATIONS)
            await sql`drop trigger if exists ${sql.id(`${table}_${op}_count_change`)}`.execute(db);
      }
      if (pg) await sql`drop function if exists count_change()`.execute(db);
      await db.schema.dropTable('change_counter').ifExists().execute();
    },
  };
}
