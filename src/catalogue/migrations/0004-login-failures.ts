// Failed log-ins counted in the database (docs/decisions/0034) and the generated session
// secret kept there (docs/decisions/0032), for both engines. `at` is milliseconds since the
// epoch: bigint, which node:sqlite reads as a number and pg as a string (the limiter converts).
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function loginFailureTables(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .createTable('login_failures')
        .addColumn('key_hash', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_key')
        .on('login_failures')
        .columns(['key_hash', 'at'])
        .execute();
      await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
      await db.schema
        .createTable('server_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Db) {
      await db.schema.dropTable('server_settings').ifExists().execute();
      await db.schema.dropTable('login_failures').ifExists().execute();
    },
  };
}
