// Test support for catalogue tests: a migrated, empty catalogue database on each engine.
import { migrateToLatest, type DialectName } from '../../../src/storage/index.ts';
import { testTargets, type TestDatabase } from '../storage/targets.ts';
import { catalogueMigrations } from '../../../src/catalogue/migrations/index.ts';
import type { DB } from '../../../src/catalogue/tables.ts';

export type { TestDatabase };

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
