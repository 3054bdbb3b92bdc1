// Runs a migration set with Kysely's Migrator. The set is a function of the dialect, so one
// list of migrations serves both engines and the differences are explicit capability checks.
import { Migrator, type Kysely, type Migration, type MigrationResult } from 'kysely';
import type { Capabilities, Database, DialectName } from './open.ts';

export interface MigrationContext {
  readonly dialect: DialectName;
  readonly capabilities: Capabilities;
}

/** Migrations by name; names sort in the order they run (e.g. `0001-catalogue`). */
export type MigrationSet = (context: MigrationContext) => Readonly<Record<string, Migration>>;

export class MigrationFailedError extends Error {
  override name = 'MigrationFailedError';
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest<DB>(database: Database<DB>, set: MigrationSet): Promise<string[]> {
  const { error, results } = await migrator(database, set).migrateToLatest();
  return outcome(error, results);
}

/** Undoes the most recent migration (development aid). */
export async function migrateDown<DB>(database: Database<DB>, set: MigrationSet): Promise<string[]> {
  const { error, results } = await migrator(database, set).migrateDown();
  return outcome(error, results);
}

function migrator<DB>(database: Database<DB>, set: MigrationSet): Migrator {
  const migrations = set({ dialect: database.dialect, capabilities: database.capabilities });
  return new Migrator({
    // Migrations must not depend on the application's table types as they change later.
    db: database.db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => ({ ...migrations }) },
  });
}

function outcome(error: unknown, results: MigrationResult[] | undefined): string[] {
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed) {
    const which = failed ? ` (${failed.migrationName})` : '';
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new MigrationFailedError(`migration failed${which}: ${reason}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
