// The OAI-PMH provider's lists (ADR 0081): a work's record datestamp is its `updated_at`, which
// every change of what the work shows already moves (its title, persons, copies; ADR 0024), and
// a deleted work keeps its row with the stamp of its deletion. Harvests read works in
// (updated_at, id) order within a from/until range, deleted ones included: this index serves
// that keyset walk and the earliest datestamp without touching the table.
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function oaiDatestamps(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema.createIndex('works_updated_at').on('works').columns(['updated_at', 'id']).execute();
    },
    async down(db: Db) {
      await db.schema.dropIndex('works_updated_at').execute();
    },
  };
}
