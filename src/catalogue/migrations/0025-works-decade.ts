// The works list's decade facet (ADR 0094): an index on the floored decade of `jahr`, then the
// list order, so a list filtered by decade reads its page in order from the index instead of
// walking every work. The expression is the one works/facets.ts writes (`decadeOf`), character
// for character: both engines use an expression index only for the same expression.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

export function worksDecade(_context: MigrationContext): Migration {
  return {
    async up(db: Db) {
      await sql`create index works_decade on works ((jahr - ((jahr % 10) + 10) % 10), sort_key, id)`.execute(
        db,
      );
    },
    async down(db: Db) {
      await sql`drop index works_decade`.execute(db);
    },
  };
}
