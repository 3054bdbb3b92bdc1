// A PostgreSQL statement trigger and its function, shared by migrations 0013 and 0031: after
// `event` ("<insert | update | delete> on <table>"), with the transition tables `transition`
// names, run `body` once per statement.
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import { sql, type Kysely, type RawBuilder } from 'kysely';

export async function pgStatementTrigger(
  db: Kysely<unknown>,
  name: string,
  event: string,
  transition: string,
  body: RawBuilder<unknown>,
): Promise<void> {
  await sql`create function ${sql.id(name)}() returns trigger language plpgsql as $$
    begin ${body}; return null; end $$`.execute(db);
  const [op, , table] = event.split(' ');
  await sql`create trigger ${sql.id(name)} after ${sql.raw(op!)} on ${sql.table(table!)}
    referencing ${sql.raw(transition)} for each statement execute function ${sql.id(name)}()`.execute(db);
}
