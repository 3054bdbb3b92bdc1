// Accounts over HTTP (ADR 0063): an account can be locked (`locked_at`; locked ≠ deleted, staff
// unlock it), and every account has a session epoch (`session_epoch`), moved by every change
// that must end its sessions and remembered Basic credentials — a password change or reset, a
// lock or unlock, a role change. The signed session cookie carries the epoch it was issued
// under; a cookie whose epoch is no longer the account's reads as anonymous on every worker and
// machine, checked in the account read each authenticated request already makes.
// `password_changed_at` is the version of `/personen/{slug}/konto/passwort`, `updated_at` (null:
// `created_at`) the version of `/personen/{slug}/konto`.
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

const COLUMNS = ['session_epoch', 'locked_at', 'password_changed_at', 'updated_at'] as const;

export function accountStates(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .alterTable('accounts')
        .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('accounts').addColumn('locked_at', 'text').execute();
      await db.schema.alterTable('accounts').addColumn('password_changed_at', 'text').execute();
      await db.schema.alterTable('accounts').addColumn('updated_at', 'text').execute();
    },
    async down(db: Db) {
      for (const column of [...COLUMNS].reverse())
        await db.schema.alterTable('accounts').dropColumn(column).execute();
    },
  };
}
