// Search pages that cost what the page holds, for works (docs/decisions/0052-ranked-search-index.md):
// `works.list_rank` and `works_ranked_fts` (ranked-index.ts). SQLite only.
import type { Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { rankedIndex } from './ranked-index.ts';

export function listRanks(context: MigrationContext): Migration {
  return rankedIndex('works', context);
}
