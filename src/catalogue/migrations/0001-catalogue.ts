// The catalogue's tables, for both engines. Differences are decided by the migration context:
// identity columns, the bytewise collation of sort keys, and the full-text index.
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function catalogueTables({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  const id = (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  // Sort keys compare bytewise in both engines, so paging order is the same everywhere.
  const sortKeyType = pg ? sql`text collate "C"` : sql`text`;

  return {
    async up(db: Db) {
      await db.schema
        .createTable('persons')
        .addColumn('id', 'integer', id)
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('vorname', 'text', (c) => c.notNull())
        .addColumn('nachname', 'text', (c) => c.notNull())
        .addColumn('image', 'text')
        .addColumn('geboren', 'integer')
        .addColumn('gestorben', 'integer')
        .addColumn('sort_key', sortKeyType, (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('persons_sort').on('persons').columns(['sort_key', 'id']).execute();

      await db.schema
        .createTable('works')
        .addColumn('id', 'integer', id)
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('titel', 'text', (c) => c.notNull())
        .addColumn('jahr', 'integer')
        .addColumn('exemplare', 'integer', (c) =>
          c
            .notNull()
            .defaultTo(1)
            .check(sql`exemplare >= 0`),
        )
        .addColumn('sort_key', sortKeyType, (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('works_sort').on('works').columns(['sort_key', 'id']).execute();

      await db.schema
        .createTable('person_work')
        .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
        .addColumn('work_id', 'integer', (c) => c.notNull().references('works.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('person_work_pk', ['work_id', 'person_id'])
        .execute();
      await db.schema
        .createIndex('person_work_person')
        .on('person_work')
        .columns(['person_id', 'work_id'])
        .execute();

      await db.schema
        .createTable('slug_history')
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('person', 'work')`))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('slug_history_pk', ['kind', 'slug'])
        .execute();

      await db.schema
        .createTable('accounts')
        .addColumn('person_id', 'integer', (c) => c.primaryKey().references('persons.id').onDelete('cascade'))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) =>
          c
            .notNull()
            .defaultTo('member')
            .check(sql`role in ('member', 'staff')`),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('loans')
        .addColumn('id', 'integer', id)
        .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id'))
        .addColumn('work_id', 'integer', (c) => c.notNull().references('works.id'))
        .addColumn('borrowed_at', 'text', (c) => c.notNull())
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('returned_at', 'text')
        .execute();
      await db.schema.createIndex('loans_person').on('loans').columns(['person_id', 'borrowed_at']).execute();
      // Open loans per work: what `verfuegbar` and the borrowing check count.
      await db.schema
        .createIndex('loans_open_work')
        .on('loans')
        .column('work_id')
        .where(sql.ref('returned_at'), 'is', null)
        .execute();

      if (pg) await postgresFullText(db);
      else await sqliteFullText(db);
    },

    async down(db: Db) {
      if (!pg) {
        await sql`drop table if exists works_fts`.execute(db);
        await sql`drop table if exists persons_fts`.execute(db);
      }
      for (const table of ['loans', 'accounts', 'slug_history', 'person_work', 'works', 'persons']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}

/** A generated tsvector column with a GIN index; 'simple' keeps names as written (no stemming). */
async function postgresFullText(db: Db): Promise<void> {
  for (const table of ['persons', 'works']) {
    await sql`alter table ${sql.table(table)} add column search_vector tsvector
      generated always as (to_tsvector('simple', search_text)) stored`.execute(db);
    await sql`create index ${sql.id(`${table}_search`)} on ${sql.table(table)} using gin (search_vector)`.execute(
      db,
    );
  }
}

/** External-content FTS5 tables over search_text, kept in sync by triggers. */
async function sqliteFullText(db: Db): Promise<void> {
  for (const table of ['persons', 'works']) {
    const fts = `${table}_fts`;
    await sql
      .raw(
        `create virtual table ${fts} using fts5(search_text, content='${table}', content_rowid='id',
      tokenize='unicode61 remove_diacritics 2', prefix='2 3')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_insert after insert on ${table} begin
      insert into ${fts}(rowid, search_text) values (new.id, new.search_text); end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_delete after delete on ${table} begin
      insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.id, old.search_text); end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_update after update of search_text on ${table} begin
      insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.id, old.search_text);
      insert into ${fts}(rowid, search_text) values (new.id, new.search_text); end`,
      )
      .execute(db);
  }
}
