// Test support: the same suite runs on SQLite (a temp file, always) and on PostgreSQL (a fresh
// schema from test/support/pg.ts, dropped afterwards) when there is a server URL. Without one
// the PostgreSQL suites skip locally and fail in CI, like every other requirement
// (test/support/requirements.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database, type DialectName } from '../../../src/storage/index.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../../support/pg.ts';

export interface TestDatabase<DB> extends Database<DB> {
  /** Closes the handle and removes the file / drops the schema. */
  dispose(): Promise<void>;
}

export interface TestTarget {
  readonly dialect: DialectName;
  /** Reason to skip (pass to `test(name, { skip })`), or false. */
  readonly skip: string | false;
  open<DB>(): Promise<TestDatabase<DB>>;
}

/** SQLite always; PostgreSQL at `postgresUrl` (default SHELFMARK_TEST_DATABASE_URL). */
export function testTargets(postgresUrl: string | undefined = pgTestUrl()): TestTarget[] {
  return [
    { dialect: 'sqlite', skip: false, open: openTempSqlite },
    {
      dialect: 'postgres',
      skip: postgresUrl ? false : skipUnlessPg.skip,
      open: <DB>() => openFreshSchema<DB>(postgresUrl),
    },
  ];
}

export async function openTempSqlite<DB>(): Promise<TestDatabase<DB>> {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-test-'));
  const database = await openDatabase<DB>(join(dir, 'test.db'));
  return {
    ...database,
    async dispose() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A handle on a new, empty schema (freshSchema) of the database at `url`; throws without one. */
export async function openFreshSchema<DB>(url: string | undefined = pgTestUrl()): Promise<TestDatabase<DB>> {
  const schema = await freshSchema(url);
  let database: Database<DB>;
  try {
    database = await openDatabase<DB>(schema.config.connectionString, {
      searchPath: schema.schema,
      poolMax: 5,
    });
  } catch (error) {
    await schema.drop();
    throw error;
  }
  return {
    ...database,
    async dispose() {
      try {
        await database.close();
      } finally {
        await schema.drop();
      }
    },
  };
}
