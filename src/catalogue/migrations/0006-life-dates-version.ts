// The life dates (`geboren`, `gestorben`) are their own resource, `/personen/{slug}/lebensdaten`
// (ADR 0026), with their own version: `life_dates_updated_at`. Null means "not written since
// the person was created", and the version is then `created_at` (rows inserted by tools that
// predate this column, such as benchmark loaders, need not know it).
import type { Kysely, Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function lifeDatesVersion(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await db.schema.alterTable('persons').addColumn('life_dates_updated_at', 'text').execute();
    },
    async down(db: Db) {
      await db.schema.alterTable('persons').dropColumn('life_dates_updated_at').execute();
    },
  };
}
