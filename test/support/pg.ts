// PostgreSQL for tests: the server named by SHELFMARK_TEST_DATABASE_URL, one throw-away schema
// per test file or suite so that files running in parallel never see each other's tables.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { skipUnless } from './requirements.ts';

/** The test database URL, or undefined when PostgreSQL tests should skip. */
export function pgTestUrl(): string | undefined {
  return process.env.SHELFMARK_TEST_DATABASE_URL || undefined;
}

/** node:test options: `describe('store on PostgreSQL', skipUnlessPg, () => …)`. Never skips in CI. */
export const skipUnlessPg: { skip: string | false } = skipUnless('postgres');

export type FreshSchema = {
  schema: string;
  /** The database URL with `options=-c search_path=<schema>`: every connection made from it uses the schema. */
  url: string;
  /** The same for a pg.Pool / pg.Client config (`new pg.Pool(schema.config)`). */
  config: { connectionString: string; options: string };
  /** Drops the schema and everything in it. */
  drop: () => Promise<void>;
};

/**
 * Creates an empty schema with a unique name (`test_<random hex>`) in the database at `url`
 * (default: pgTestUrl(); throws if there is none, so a CI run without PostgreSQL fails).
 */
export async function freshSchema(url: string | undefined = pgTestUrl()): Promise<FreshSchema> {
  if (!url)
    throw new Error(
      'PostgreSQL test needs SHELFMARK_TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await withClient(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const options = `-c search_path=${schema}`;
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', options);
  return {
    schema,
    url: withSchema.href,
    config: { connectionString: url, options },
    drop: () =>
      withClient(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(
        () => undefined,
      ),
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
