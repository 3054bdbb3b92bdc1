// Notices by e-mail and password resets (issue 20, ADR 0085, 0086). An account gets the patron's
// private e-mail address, their language for notices and an opt-out. A notice is one row per
// occasion, unique on (kind, subject, occasion): the loan or hold it is about and the due date
// or ready time it speaks of, so a notice is planned once however many processes plan it. A
// sender claims a row by a conditional UPDATE that sets a lease (`claimed_until`); a crashed
// sender's lease runs out and another retries. A password reset stores only the SHA-256 of its
// token.
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function notices({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  const id = (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Db) {
      await db.schema.alterTable('accounts').addColumn('email', 'text').execute();
      await db.schema
        .alterTable('accounts')
        .addColumn('notices_opt_out', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('accounts')
        .addColumn('language', 'text', (c) =>
          c
            .notNull()
            .defaultTo('de')
            .check(sql`language in ('de', 'en')`),
        )
        .execute();
      /** The settings resource's version; null: the account's `created_at`. */
      await db.schema.alterTable('accounts').addColumn('settings_updated_at', 'text').execute();

      await db.schema
        .createTable('notices')
        .addColumn('id', 'integer', id)
        .addColumn('kind', 'text', (c) =>
          c
            .notNull()
            .check(sql`kind in ('due-soon', 'overdue-1', 'overdue-2', 'hold-ready', 'password-reset')`),
        )
        /** The loan or hold id the notice is about (a reset: the reset's id). */
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        /** The due date or ready time it speaks of: a renewal's new due date is a new occasion. */
        .addColumn('occasion', 'text', (c) => c.notNull())
        .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) =>
          c.notNull().check(sql`state in ('pending', 'sent', 'failed', 'obsolete')`),
        )
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('message_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('notices_once', ['kind', 'subject_id', 'occasion'])
        .execute();
      await sql`create index notices_pending on notices (next_attempt_at) where state = 'pending'`.execute(
        db,
      );
      await sql`create index notices_person on notices (person_id, created_at)`.execute(db);

      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'integer', id)
        .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
        /** Hex SHA-256 of the token the link carries; the token itself is never stored. */
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await sql`create index password_resets_person on password_resets (person_id, created_at)`.execute(db);
    },
    async down(db: Db) {
      await db.schema.dropTable('password_resets').execute();
      await db.schema.dropTable('notices').execute();
      for (const column of ['settings_updated_at', 'language', 'notices_opt_out', 'email'])
        await db.schema.alterTable('accounts').dropColumn(column).execute();
    },
  };
}
