// Runs a migration set with Kysely's Migrator. The set is a function of the dialect, so one
// list of migrations serves both engines and the differences are explicit capability checks.
import { Migrator, sql, type Kysely, type Migration, type MigrationResult } from 'kysely';
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
  const { error, results } = await (await migrator(database, set)).migrateToLatest();
  return outcome(error, results);
}

/** Undoes the most recent migration (development aid). */
export async function migrateDown<DB>(database: Database<DB>, set: MigrationSet): Promise<string[]> {
  const { error, results } = await (await migrator(database, set)).migrateDown();
  return outcome(error, results);
}

/**
 * PostgreSQL: the schema the connection works in (its search_path). Kysely's Migrator looks
 * for its own tables by name in every schema unless told which one, so a second Shelfmark (or
 * a test) in another schema of the same database would skip creating them and then fail.
 */
async function currentSchema<DB>(database: Database<DB>): Promise<string | undefined> {
  if (database.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return rows[0]?.schema;
}

/**
 * The Migrator asks Kysely's introspector whether its tables exist, and on PostgreSQL that
 * reads every column of every table in every schema, calling functions per row that fail when
 * another connection drops a schema meanwhile (42P01, seen with parallel test files). It only
 * needs names: this view answers from the catalogue's name lists, for the one schema.
 */
function scopedIntrospection(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const introspection = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string; schema: string }>`select table_name as name,
        table_schema as schema from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.map((row) => ({ ...row, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function migrator<DB>(database: Database<DB>, set: MigrationSet): Promise<Migrator> {
  const migrations = set({ dialect: database.dialect, capabilities: database.capabilities });
  const schema = await currentSchema(database);
  // Migrations must not depend on the application's table types as they change later.
  const db = database.db as unknown as Kysely<unknown>;
  return new Migrator({
    db: schema === undefined ? db : scopedIntrospection(db, schema),
    provider: { getMigrations: async () => ({ ...migrations }) },
    // Numbers are handed out ahead to parallel branches, so a lower one can be merged after a
    // higher one a database already ran (0011 after 0014): run it then instead of refusing.
    allowUnorderedMigrations: true,
    ...(schema !== undefined && { migrationTableSchema: schema }),
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
