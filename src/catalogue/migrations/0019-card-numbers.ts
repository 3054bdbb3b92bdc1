// Library card numbers (ADR 0082): every account gets one (`accounts.card_number`, unique), the
// number the desk scans to find the patron. Existing accounts get the default number made from
// their person's id (accounts/card-number.ts says the same in TypeScript for new ones).
// Nullable: rows written by tools that bypass the stores (the bench loader) have none and
// simply cannot be found at the desk by card.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function cardNumbers(context: MigrationContext): Migration {
  // `L` and the person's id, at least six digits (no truncation of longer ids).
  const fill =
    context.dialect === 'postgres'
      ? sql`'L' || case when person_id < 1000000 then lpad(person_id::text, 6, '0') else person_id::text end`
      : sql`'L' || printf('%06d', person_id)`;
  return {
    async up(db: Db) {
      await db.schema.alterTable('accounts').addColumn('card_number', 'text').execute();
      await sql`update accounts set card_number = ${fill}`.execute(db);
      await db.schema
        .createIndex('accounts_card_number')
        .unique()
        .on('accounts')
        .column('card_number')
        .execute();
    },
    async down(db: Db) {
      await db.schema.dropIndex('accounts_card_number').execute();
      await db.schema.alterTable('accounts').dropColumn('card_number').execute();
    },
  };
}
