// Test support: the same suite runs on SQLite (a temp file, always) and on PostgreSQL (a fresh
// schema, dropped afterwards) when the caller passes a server URL. Test files read the env var
// SHELFMARK_TEST_DATABASE_URL themselves and hand it in (only main/cli read process.env).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase, type Database, type DialectName } from './open.ts';

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

// Worded like test/support/requirements.ts, so the test runner lists both under one line.
export const PG_SKIP_REASON = 'PostgreSQL suites skipped: SHELFMARK_TEST_DATABASE_URL not set';

/** SQLite always; PostgreSQL when `postgresUrl` is given, else reported as skipped. */
export function testTargets(postgresUrl: string | undefined): TestTarget[] {
  return [
    { dialect: 'sqlite', skip: false, open: openTempSqlite },
    {
      dialect: 'postgres',
      skip: postgresUrl ? false : PG_SKIP_REASON,
      open: <DB>() => openFreshSchema<DB>(postgresUrl ?? ''),
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

export async function openFreshSchema<DB>(url: string): Promise<TestDatabase<DB>> {
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase<unknown>(url, { poolMax: 1 });
  try {
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  } catch (error) {
    await admin.close();
    throw error;
  }
  const database = await openDatabase<DB>(url, { searchPath: schema, poolMax: 5 });
  return {
    ...database,
    async dispose() {
      await database.close();
      try {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      } finally {
        await admin.close();
      }
    },
  };
}
