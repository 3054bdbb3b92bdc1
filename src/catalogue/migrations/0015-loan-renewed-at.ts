// When a loan was last renewed (ADR 0060): a renewal moves `due_at` and `renewals`, and the loan's
// Last-Modified (and its list's) must move with it; the time cannot be derived from the due date.
// Null: never renewed (also every row written before this column).
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function loanRenewedAt(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema.alterTable('loans').addColumn('renewed_at', 'text').execute();
    },
    async down(db: Db) {
      await db.schema.alterTable('loans').dropColumn('renewed_at').execute();
    },
  };
}
