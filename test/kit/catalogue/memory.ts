// Test support: the catalogue's real SQL stores over a migrated in-memory SQLite database, for
// handler tests that write. Slugs, renames (old slug → 301), deletions (→ 410), conflicts and
// compare-and-set are the stores' own, not a re-implementation that could drift from them.
import { after } from 'node:test';
import { migrateToLatest, openDatabase, type Database } from '../../../src/storage/index.ts';
import { catalogueMigrations } from '../../../src/catalogue/migrations/index.ts';
import type { DB } from '../../../src/catalogue/tables.ts';
import { createStores, type CatalogueStores } from '../../../src/catalogue/stores.ts';

export type MemoryCatalogue = CatalogueStores;

const open = new Set<Database<DB>>();

// Every catalogue a test file opened is closed after the file's last test.
after(async () => {
  for (const database of open) await database.close();
  open.clear();
});

/**
 * An empty catalogue. Its clock starts at 2024-06-01 and moves one second per reading, so
 * every write gets a later `updatedAt` (and a new ETag) however fast the test runs.
 */
export async function memoryCatalogue(): Promise<MemoryCatalogue> {
  const database = await openDatabase<DB>(':memory:');
  open.add(database);
  await migrateToLatest(database, catalogueMigrations);
  let tick = Date.parse('2024-06-01T00:00:00Z');
  return createStores(database.db, {
    capabilities: database.capabilities,
    now: () => new Date((tick += 1000)),
  });
}
