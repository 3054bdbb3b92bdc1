import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { freshSchema, skipUnlessPg } from './pg.ts';

async function query(connection: string | pg.ClientConfig, sql: string, values: unknown[] = []) {
  const client = new pg.Client(
    typeof connection === 'string' ? { connectionString: connection } : connection,
  );
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

test(
  'freshSchema gives a URL and a config whose connections use a new, empty schema',
  skipUnlessPg,
  async () => {
    const fresh = await freshSchema();
    try {
      assert.match(fresh.schema, /^test_[0-9a-f]{12}$/);
      await query(fresh.url, 'CREATE TABLE person (id int)');
      const [viaUrl] = await query(fresh.url, 'SELECT current_schema() AS schema');
      const [viaConfig] = await query(fresh.config, 'SELECT current_schema() AS schema');
      assert.equal(viaUrl.schema, fresh.schema);
      assert.equal(viaConfig.schema, fresh.schema);
      const tables = await query(
        fresh.config,
        'SELECT table_schema FROM information_schema.tables WHERE table_name = $1',
        ['person'],
      );
      assert.deepEqual(
        tables.map((t) => t.table_schema),
        [fresh.schema],
      );
    } finally {
      await fresh.drop();
    }
    const left = await query(fresh.config.connectionString, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [
      fresh.schema,
    ]);
    assert.deepEqual(left, []);
  },
);

test('two fresh schemas do not share tables', skipUnlessPg, async () => {
  const [a, b] = await Promise.all([freshSchema(), freshSchema()]);
  try {
    assert.notEqual(a.schema, b.schema);
    await query(a.url, 'CREATE TABLE only_in_a (id int)');
    await assert.rejects(query(b.url, 'SELECT * FROM only_in_a'), /does not exist/);
  } finally {
    await Promise.all([a.drop(), b.drop()]);
  }
});

test('freshSchema without a database URL says what to set', async () => {
  await assert.rejects(freshSchema(''), /SHELFMARK_TEST_DATABASE_URL/);
});
