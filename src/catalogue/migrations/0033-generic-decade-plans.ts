// PostgreSQL: the decade recompute of migration 0031 plans its statements once per connection
// instead of once per call (ADR 0110). Its statements take the persons as a parameter, so
// PL/pgSQL's plan cache planned them afresh for every call: a generic plan's estimate for an
// array of unknown length never beat a custom plan's, although both are the same index probes
// (`enable_seqscan = off` and the `offset 0` fences leave the planner no other choice). A year's
// PATCH of one work spent about 1.1 ms of PostgreSQL CPU in the update's triggers, 0.37 ms of it
// planning. `plan_cache_mode` set on the two functions applies to their statements only; the
// application's own statements keep PostgreSQL's default (a search's plan depends on its words).
// SQLite's triggers are plain SQL and need nothing.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** The functions of migration 0031 that take the persons or works as a parameter. */
const FUNCTIONS = ['person_decades_recompute(integer[])', 'person_decades_persons_of(integer[])'];

export function genericDecadePlans({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      if (!pg) return;
      for (const fn of FUNCTIONS)
        await sql`alter function ${sql.raw(fn)} set plan_cache_mode = force_generic_plan`.execute(db);
    },
    async down(db: Db) {
      if (!pg) return;
      for (const fn of FUNCTIONS) await sql`alter function ${sql.raw(fn)} reset plan_cache_mode`.execute(db);
    },
  };
}
