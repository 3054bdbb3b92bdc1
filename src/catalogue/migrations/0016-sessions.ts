// Sessions that end (ADR 0076): one row per log-in, keyed by a hash of the cookie's random
// session id. The authenticator finds the account through its session row in the one
// primary-key read it already makes per request; log-out deletes the row, so the cookie is over
// on every worker and machine, and removing an account deletes its rows (here also by the
// foreign key), so a new account of the same person never finds an old cookie's session.
// `expires_at` (ISO text, ADR 0041) is the cookie's own expiry: rows past it are pruned at log-in.
// Cookies issued before this migration have no row: everyone logs in once more.
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function sessionTable(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('person_id', 'integer', (c) =>
          c.notNull().references('accounts.person_id').onDelete('cascade'),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_person').on('sessions').column('person_id').execute();
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
    },
    async down(db: Db) {
      await db.schema.dropTable('sessions').ifExists().execute();
    },
  };
}
