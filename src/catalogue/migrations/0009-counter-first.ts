// PostgreSQL: the change counter's triggers (migration 0003) fire BEFORE each statement instead
// of after it (ADR 0055). Every statement that writes a catalogue table then locks the counter's
// one row before it locks any row of its own, and holds it until commit; so every write
// transaction takes the counter first, and two writers can no longer each hold a row the other
// needs (a work write locks the work then its persons, a person write the person then its works:
// PostgreSQL aborted one of them with a deadlock). SQLite admits one writer at a time anyway.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { COUNTED_TABLES } from './0003-change-counter.ts';

type Db = Kysely<unknown>;

async function recreate(db: Db, when: 'before' | 'after'): Promise<void> {
  for (const table of COUNTED_TABLES) {
    const name = sql.id(`${table}_count_change`);
    await sql`drop trigger if exists ${name} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${name}
      ${sql.raw(when)} insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function count_change()`.execute(db);
  }
}

export function counterFirst({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      if (pg) await recreate(db, 'before');
    },
    async down(db: Db) {
      if (pg) await recreate(db, 'after');
    },
  };
}
