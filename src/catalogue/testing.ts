// Test support for catalogue tests: a migrated, empty catalogue database on each engine.
import { migrateToLatest, testTargets, type TestDatabase, type DialectName } from '../storage/index.ts';
import { catalogueMigrations } from './migrations/index.ts';
import type { DB } from './schema.ts';

export interface CatalogueTestTarget {
  readonly dialect: DialectName;
  readonly skip: string | false;
  open(): Promise<TestDatabase<DB>>;
}

/** Pass process.env.SHELFMARK_TEST_DATABASE_URL from the test file. */
export function catalogueTestTargets(postgresUrl: string | undefined): CatalogueTestTarget[] {
  return testTargets(postgresUrl).map((target) => ({
    dialect: target.dialect,
    skip: target.skip,
    async open() {
      const database = await target.open<DB>();
      try {
        await migrateToLatest(database, catalogueMigrations);
      } catch (error) {
        await database.dispose();
        throw error;
      }
      return database;
    },
  }));
}
