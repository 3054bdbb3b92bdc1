// Circulation tables (issue: copies, holds, renewals): every copy of a work is a row with its
// shelfmark (Signatur), barcode and location; a loan lends one copy; a hold queues a member for
// a work and, once a copy comes back, names the copy kept for them. The database itself keeps
// the rules no two requests may break together: a copy is in at most one open loan and held for
// at most one open hold, and a member has at most one open hold per work (partial unique
// indexes, both engines). Existing works get `exemplare` copies, and open loans a copy each.
// A copy's status is derived, not stored: missing (`missing_since`), else on loan (an open loan
// names it), else held (an open hold names it), else available. Copies and holds go with a work
// or person that is hard-deleted (only tools do that; the catalogue deletes softly).
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** The new tables a representation shows data of: the change counter counts their writes too. */
export const CIRCULATION_COUNTED_TABLES = ['copies', 'holds'] as const;
const OPERATIONS = ['insert', 'update', 'delete'] as const;

async function countChanges(db: Db, pg: boolean): Promise<void> {
  for (const table of CIRCULATION_COUNTED_TABLES) {
    if (pg) {
      // BEFORE each statement, as migration 0009 made the others (ADR 0055).
      await sql`create trigger ${sql.id(`${table}_count_change`)}
        before insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function count_change()`.execute(db);
      continue;
    }
    for (const op of OPERATIONS)
      await sql`create trigger ${sql.id(`${table}_${op}_count_change`)} after ${sql.raw(op)} on ${sql.table(table)}
        begin update change_counter set n = n + 1; end`.execute(db);
  }
}

export function circulationTables({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  const id = (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Db) {
      await db.schema
        .createTable('copies')
        .addColumn('id', 'integer', id)
        .addColumn('work_id', 'integer', (c) => c.notNull().references('works.id').onDelete('cascade'))
        /** 1, 2, … within the work: the copy's URL segment. */
        .addColumn('nummer', 'integer', (c) => c.notNull().check(sql`nummer > 0`))
        .addColumn('signatur', 'text', (c) => c.notNull())
        .addColumn('barcode', 'text', (c) => c.notNull().unique())
        .addColumn('standort', 'text', (c) => c.notNull())
        .addColumn('missing_since', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        /** Withdrawn copies stay as history of their loans. */
        .addColumn('deleted_at', 'text')
        .addUniqueConstraint('copies_work_nummer', ['work_id', 'nummer'])
        .execute();

      await db.schema
        .alterTable('loans')
        .addColumn('copy_id', 'integer', (c) => c.references('copies.id'))
        .execute();
      await db.schema
        .alterTable('loans')
        .addColumn('renewals', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create unique index loans_open_copy on loans (copy_id)
        where returned_at is null and copy_id is not null`.execute(db);

      await db.schema
        .createTable('holds')
        .addColumn('id', 'integer', id)
        .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
        .addColumn('work_id', 'integer', (c) => c.notNull().references('works.id').onDelete('cascade'))
        /** Queue order: (placed_at, id), first come first served. */
        .addColumn('placed_at', 'text', (c) => c.notNull())
        /** The copy kept for this member once one came back; null while waiting. */
        .addColumn('copy_id', 'integer', (c) => c.references('copies.id').onDelete('set null'))
        .addColumn('ready_at', 'text')
        /** Kept until then; afterwards the copy goes to the next in the queue. */
        .addColumn('expires_at', 'text')
        .addColumn('ended_at', 'text')
        .addColumn('end_reason', 'text', (c) =>
          c.check(sql`end_reason is null or end_reason in ('cancelled', 'fulfilled', 'expired')`),
        )
        .execute();
      await sql`create unique index holds_open_person_work on holds (person_id, work_id)
        where ended_at is null`.execute(db);
      await sql`create unique index holds_open_copy on holds (copy_id)
        where ended_at is null and copy_id is not null`.execute(db);
      await sql`create index holds_queue on holds (work_id, placed_at, id) where ended_at is null`.execute(
        db,
      );
      await sql`create index holds_person on holds (person_id, placed_at)`.execute(db);

      await backfillCopies(db, pg);
      await countChanges(db, pg);
    },

    async down(db: Db) {
      for (const table of CIRCULATION_COUNTED_TABLES) {
        if (pg)
          await sql`drop trigger if exists ${sql.id(`${table}_count_change`)} on ${sql.table(table)}`.execute(
            db,
          );
        else
          for (const op of OPERATIONS)
            await sql`drop trigger if exists ${sql.id(`${table}_${op}_count_change`)}`.execute(db);
      }
      await db.schema.dropTable('holds').ifExists().execute();
      await sql`drop index if exists loans_open_copy`.execute(db);
      await db.schema.alterTable('loans').dropColumn('renewals').execute();
      await db.schema.alterTable('loans').dropColumn('copy_id').execute();
      await db.schema.dropTable('copies').ifExists().execute();
    },
  };
}

/**
 * `exemplare` copies for every work that has none, with a shelfmark in the usual shape
 * (`Goe 12 Fa`: first author's surname, a number, the title's first letters) and a barcode;
 * then each open loan gets a copy of its work, in loan order.
 */
async function backfillCopies(db: Db, pg: boolean): Promise<void> {
  const numbers = pg
    ? sql`select generate_series(1, (select coalesce(max(exemplare), 0) from works)) as n`
    : sql`with recursive seq(n) as (select 1 union all select n + 1 from seq
      where n < (select coalesce(max(exemplare), 0) from works)) select n from seq`;
  const author = sql`(select substr(p.nachname, 1, 3) from person_work pw join persons p on p.id = pw.person_id
      where pw.work_id = w.id order by pw.position, pw.person_id limit 1)`;
  const idText = pg ? sql`w.id::text` : sql`cast(w.id as text)`;
  const nText = pg ? sql`seq.n::text` : sql`cast(seq.n as text)`;
  await sql`insert into copies (work_id, nummer, signatur, barcode, standort, created_at, updated_at)
    select w.id, seq.n,
      coalesce(${author}, 'Anon') || ' ' || ${idText} || ' ' || substr(w.titel, 1, 2)
        || case when seq.n > 1 then '+' || ${nText} else '' end,
      'SM' || ${idText} || '-' || ${nText},
      'Freihand',
      w.created_at, w.created_at
    from works w join (${numbers}) seq on seq.n <= w.exemplare
    where not exists (select 1 from copies c where c.work_id = w.id)`.execute(db);
  await sql`update loans set copy_id = (
      select c.id from copies c where c.work_id = loans.work_id and c.nummer = (
        select count(*) from loans l2
        where l2.work_id = loans.work_id and l2.returned_at is null and l2.id <= loans.id))
    where returned_at is null and copy_id is null`.execute(db);
}
