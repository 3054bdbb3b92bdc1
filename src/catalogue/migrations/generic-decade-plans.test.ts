// 0033-generic-decade-plans on PostgreSQL: the decade recompute runs generic plans (its array
// parameter shown as `$1`), where before the migration every call planned its statements for
// the array it was given (the constant shown). The plans are read with auto_explain, whose
// notices come back to the connection that ran them. The recompute's result is
// person-decades.test.ts's subject; this test is about its plans only.
import assert from 'node:assert/strict';
import pg from 'pg';
import { test } from 'node:test';
import { migrateToLatest, openDatabase } from '../../storage/index.ts';
import { generateWorks } from '../demo/index.ts';
import type { DB } from '../tables.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../../../test/support/pg.ts';
import { migrateDownThrough } from '../../../test/kit/storage/migrate-down.ts';
import { catalogueMigrations } from './index.ts';

/** How the recompute's statements call `unnest` on a connection of its own: each plan's text. */
async function unnestCalls(config: pg.ClientConfig, personId: number): Promise<string[]> {
  const client = new pg.Client(config);
  const plans: string[] = [];
  client.on('notice', (notice) => plans.push(notice.message ?? ''));
  await client.connect();
  try {
    for (const setting of [
      "load 'auto_explain'",
      'set auto_explain.log_min_duration = 0',
      'set auto_explain.log_nested_statements = on',
      'set auto_explain.log_verbose = on',
      'set auto_explain.log_level = notice',
    ])
      await client.query(setting);
    await client.query('begin');
    // More calls than PostgreSQL's five custom plans before it would weigh a generic one.
    for (let call = 0; call < 7; call++)
      await client.query('select person_decades_recompute(array[$1::integer])', [personId]);
    await client.query('rollback');
  } finally {
    await client.end();
  }
  return plans.flatMap((plan) => plan.match(/Function Call: unnest\([^)]*\)/g) ?? []);
}

test(
  '0033-generic-decade-plans on postgres: the decade recompute plans once, not per call',
  skipUnlessPg,
  async () => {
    const schema = await freshSchema(pgTestUrl());
    const database = await openDatabase<DB>(schema.config.connectionString, { searchPath: schema.schema });
    try {
      await migrateToLatest(database, catalogueMigrations);
      await generateWorks(database.db, 20);
      const { id } = await database.db
        .selectFrom('person_work')
        .select('person_id as id')
        .executeTakeFirstOrThrow();

      const generic = await unnestCalls(schema.config, id);
      assert.ok(generic.length >= 14, `both statements of every call were explained: ${generic.length}`);
      assert.deepEqual(new Set(generic), new Set(['Function Call: unnest($1)']), 'generic plans');

      await migrateDownThrough(database, catalogueMigrations, '0033-generic-decade-plans');
      const custom = await unnestCalls(schema.config, id);
      assert.ok(
        custom.some((call) => call.includes(`'{${id}}'`)),
        `before 0033 each call was planned for its array: ${[...new Set(custom)].join(', ')}`,
      );

      await migrateToLatest(database, catalogueMigrations);
      assert.deepEqual(new Set(await unnestCalls(schema.config, id)), new Set(['Function Call: unnest($1)']));
    } finally {
      await database.close();
      await schema.drop();
    }
  },
);
