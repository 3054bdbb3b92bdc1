// External ids (ADR 0064): an import keyed by another system's id (a library's control number, an
// authority id) finds its person or work again whatever slug it was given, so importing the same
// file twice changes nothing. Null: none known; unique among those that have one (both engines
// let any number of rows share null in a unique index). `works.isbn` keeps the ISBN a MARCXML
// record names (020 $a), as written there.
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function externalIds(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema.alterTable('persons').addColumn('external_id', 'text').execute();
      await db.schema
        .createIndex('persons_external_id')
        .unique()
        .on('persons')
        .column('external_id')
        .execute();
      await db.schema.alterTable('works').addColumn('external_id', 'text').execute();
      await db.schema.createIndex('works_external_id').unique().on('works').column('external_id').execute();
      await db.schema.alterTable('works').addColumn('isbn', 'text').execute();
    },
    async down(db: Db) {
      await db.schema.alterTable('works').dropColumn('isbn').execute();
      await db.schema.dropIndex('works_external_id').execute();
      await db.schema.alterTable('works').dropColumn('external_id').execute();
      await db.schema.dropIndex('persons_external_id').execute();
      await db.schema.alterTable('persons').dropColumn('external_id').execute();
    },
  };
}
