// Circulation rules (issue 20, ADR 0084): item types with their loan period, renewals, per-member
// loan limit and whether they lend at all; every copy has one (existing copies: `buch`); and a
// calendar of closed days on which nothing falls due. A type's null loan period or renewals
// means the configured defaults (28 days, SHELFMARK_MAX_RENEWALS), so `buch` follows the
// configuration as every loan did before; a null limit means only the overall one applies.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** The types every library starts with (staff change them through the import, ADR 0084). */
const SEED = [
  {
    code: 'buch',
    name_de: 'Buch',
    name_en: 'Book',
    lendable: 1,
    loan_days: null,
    renewals: null,
    max_loans: null,
  },
  { code: 'dvd', name_de: 'DVD', name_en: 'DVD', lendable: 1, loan_days: 7, renewals: 1, max_loans: 5 },
  {
    code: 'praesenz',
    name_de: 'Präsenzbestand',
    name_en: 'Reference (not for loan)',
    lendable: 0,
    loan_days: null,
    renewals: null,
    max_loans: null,
  },
];

/** Copies show their type, and the calendar is a resource: their writes count (ADR 0048, 0055). */
const COUNTED = ['item_types', 'closed_days'] as const;
const OPERATIONS = ['insert', 'update', 'delete'] as const;

async function countChanges(db: Db, pg: boolean): Promise<void> {
  for (const table of COUNTED) {
    if (pg) {
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

export function circulationRules({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      await db.schema
        .createTable('item_types')
        .addColumn('code', 'text', (c) => c.primaryKey().check(sql`code <> ''`))
        .addColumn('name_de', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('lendable', 'integer', (c) => c.notNull().check(sql`lendable in (0, 1)`))
        .addColumn('loan_days', 'integer', (c) => c.check(sql`loan_days is null or loan_days > 0`))
        .addColumn('renewals', 'integer', (c) => c.check(sql`renewals is null or renewals >= 0`))
        .addColumn('max_loans', 'integer', (c) => c.check(sql`max_loans is null or max_loans > 0`))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      const at = new Date().toISOString();
      for (const t of SEED)
        await sql`insert into item_types (code, name_de, name_en, lendable, loan_days, renewals, max_loans, updated_at)
          values (${t.code}, ${t.name_de}, ${t.name_en}, ${t.lendable}, ${t.loan_days}, ${t.renewals}, ${t.max_loans}, ${at})`.execute(
          db,
        );
      // SQLite cannot add a REFERENCES column with a default: triggers keep the same rule there.
      await db.schema
        .alterTable('copies')
        .addColumn('item_type', 'text', (c) => {
          const column = c.notNull().defaultTo('buch');
          return pg ? column.references('item_types.code') : column;
        })
        .execute();
      if (!pg)
        for (const op of ['insert', 'update'])
          await sql`create trigger ${sql.id(`copies_${op}_item_type`)} before ${sql.raw(op)} on copies
            when not exists (select 1 from item_types where code = new.item_type)
            begin select raise(abort, 'FOREIGN KEY constraint failed: copies.item_type'); end`.execute(db);
      if (!pg)
        await sql`create trigger item_types_delete_in_use before delete on item_types
          when exists (select 1 from copies where item_type = old.code)
          begin select raise(abort, 'FOREIGN KEY constraint failed: copies.item_type'); end`.execute(db);
      await db.schema
        .createTable('closed_days')
        /** YYYY-MM-DD, the library's calendar day. */
        .addColumn('day', 'text', (c) => c.primaryKey().check(sql`length(day) = 10`))
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await countChanges(db, pg);
    },
    async down(db: Db) {
      for (const table of COUNTED) {
        if (pg)
          await sql`drop trigger if exists ${sql.id(`${table}_count_change`)} on ${sql.table(table)}`.execute(
            db,
          );
        else
          for (const op of OPERATIONS)
            await sql`drop trigger if exists ${sql.id(`${table}_${op}_count_change`)}`.execute(db);
      }
      await db.schema.dropTable('closed_days').execute();
      if (!pg)
        for (const name of ['copies_insert_item_type', 'copies_update_item_type', 'item_types_delete_in_use'])
          await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      await db.schema.alterTable('copies').dropColumn('item_type').execute();
      await db.schema.dropTable('item_types').execute();
    },
  };
}
