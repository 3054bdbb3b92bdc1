// 0007-list-ranks for persons (docs/decisions/0052-ranked-search-index.md): `persons.list_rank`
// and `persons_ranked_fts` (ranked-index.ts), so a person search page also reads only its own
// matches. SQLite only.
import type { Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { rankedIndex } from './ranked-index.ts';

export function personListRanks(context: MigrationContext): Migration {
  return rankedIndex('persons', context);
}
