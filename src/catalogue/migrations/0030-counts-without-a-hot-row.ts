// PostgreSQL: the live row counts (migrations 0005, 0013, 0028) without a row every create and
// delete of a person or work updates (ADR 0098). Their triggers updated the count's one row,
// a lock that concurrent creates and deletes queued on until commit. Now each statement that
// changes a count inserts its delta as a row of its own (`live_row_count_deltas`: inserts
// only, so writers share no row), and `live_row_counts` is a view: the folded count plus the
// deltas not folded yet, one index range for the lists' totals. About one write in FOLD_ONE_IN
// folds its count's deltas into the folded row, taking that row only if no other writer holds
// it (SKIP LOCKED): a fold never waits, and the deltas stay few. SQLite admits one writer at a
// time anyway and keeps its table and triggers.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

const FOLD_ONE_IN = 64;

const live = (rows: string) => `(select count(*) from ${rows} where deleted_at is null)`;
const publicLive = (rows: string) => `(select count(*) from ${rows} where deleted_at is null and public = 1)`;

/** [trigger function, count row, the statement's delta] of migrations 0005 and 0013. */
const COUNT_FUNCTIONS: [string, string, string][] = [
  ['persons_insert_live_count', 'persons', live('new_rows')],
  ['persons_delete_live_count', 'persons', `-${live('old_rows')}`],
  ['persons_update_live_count', 'persons', `${live('new_rows')} - ${live('old_rows')}`],
  ['works_insert_live_count', 'works', live('new_rows')],
  ['works_delete_live_count', 'works', `-${live('old_rows')}`],
  ['works_update_live_count', 'works', `${live('new_rows')} - ${live('old_rows')}`],
  ['persons_insert_public_count', 'public_persons', publicLive('new_rows')],
  ['persons_delete_public_count', 'public_persons', `-${publicLive('old_rows')}`],
  ['persons_update_public_count', 'public_persons', `${publicLive('new_rows')} - ${publicLive('old_rows')}`],
];
const TRUNCATE_FUNCTIONS: [string, string][] = [
  ['persons_truncate_live_count', 'persons'],
  ['works_truncate_live_count', 'works'],
  ['persons_truncate_public_count', 'public_persons'],
];

async function define(db: Db, fn: string, body: string): Promise<void> {
  await sql`create or replace function ${sql.id(fn)}() returns trigger language plpgsql as $$
    ${sql.raw(body)} $$`.execute(db);
}

async function up(db: Db): Promise<void> {
  await sql`alter table live_row_counts rename to live_row_count_folded`.execute(db);
  await sql`create table live_row_count_deltas (name text not null, d bigint not null)`.execute(db);
  await sql`create index live_row_count_deltas_name on live_row_count_deltas (name)`.execute(db);
  await sql`create view live_row_counts as
    select f.name, (f.n + coalesce((select sum(x.d) from live_row_count_deltas x where x.name = f.name), 0))::bigint as n
    from live_row_count_folded f`.execute(db);
  await sql`create function fold_live_count(counted text) returns void language plpgsql as $$
    begin
      perform 1 from live_row_count_folded where name = counted for update skip locked;
      if not found then return; end if;
      with moved as (delete from live_row_count_deltas where name = counted returning d)
      update live_row_count_folded set n = n + coalesce((select sum(d) from moved), 0) where name = counted;
    end $$`.execute(db);
  await sql`create function add_live_count(counted text, delta bigint) returns void language plpgsql as $$
    begin
      if delta = 0 then return; end if;
      insert into live_row_count_deltas (name, d) values (counted, delta);
      if random() < ${sql.lit(1 / FOLD_ONE_IN)} then perform fold_live_count(counted); end if;
    end $$`.execute(db);
  for (const [fn, name, delta] of COUNT_FUNCTIONS)
    await define(db, fn, `begin perform add_live_count('${name}', ${delta}); return null; end`);
  // TRUNCATE takes the table's lock anyway: set the count outright.
  for (const [fn, name] of TRUNCATE_FUNCTIONS)
    await define(
      db,
      fn,
      `begin delete from live_row_count_deltas where name = '${name}';
        update live_row_count_folded set n = 0 where name = '${name}'; return null; end`,
    );
}

/** Back to one row per count (0028's triggers: an update adds only a delta that is not 0). */
async function down(db: Db): Promise<void> {
  await sql`drop view live_row_counts`.execute(db);
  await sql`update live_row_count_folded f set n = f.n + coalesce((select sum(x.d) from live_row_count_deltas x where x.name = f.name), 0)`.execute(
    db,
  );
  await sql`alter table live_row_count_folded rename to live_row_counts`.execute(db);
  await sql`drop table live_row_count_deltas`.execute(db);
  for (const [fn, name, delta] of COUNT_FUNCTIONS) {
    const add = `update live_row_counts set n = n + d where name = '${name}'`;
    const body = fn.includes('_update_')
      ? `declare d bigint := ${delta}; begin if d <> 0 then ${add}; end if; return null; end`
      : `declare d bigint := ${delta}; begin ${add}; return null; end`;
    await define(db, fn, body);
  }
  for (const [fn, name] of TRUNCATE_FUNCTIONS)
    await define(db, fn, `begin update live_row_counts set n = 0 where name = '${name}'; return null; end`);
  await sql`drop function add_live_count(text, bigint)`.execute(db);
  await sql`drop function fold_live_count(text)`.execute(db);
}

export function countsWithoutAHotRow({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      if (pg) await up(db);
    },
    async down(db: Db) {
      if (pg) await down(db);
    },
  };
}
