// Which persons are public (docs/decisions/0062-patron-privacy.md): `persons.public` is 1 while
// the person has at least one live work (a person_work row whose work is not deleted), else 0 —
// a patron without works is seen only by themself and by staff. Triggers keep the flag, so every
// writer keeps it, also tools that write rows with plain SQL (the benchmark loader, the demo
// generator): a link added or removed, a work deleted, undeleted or removed. Each recomputes
// the flag of the persons concerned rather than counting up and down, so the order in which a
// cascade removes rows cannot make it wrong. `live_row_counts` gets `public_persons`, the live
// public persons, for the public lists' totals (ADR 0025), and a partial index serves their
// keyset pages (ADR 0043). Existing rows are filled in here.
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { pgStatementTrigger } from './statement-trigger.ts';

type Db = Kysely<unknown>;

/** The counted row of live_row_counts. */
export const PUBLIC_PERSONS = 'public_persons';

/** Whether person `id` (an SQL expression) has a live work: 1 or 0 in both engines. */
const hasLiveWork = (id: RawBuilder<unknown>) => sql`case when exists (select 1 from person_work pw
  join works w on w.id = pw.work_id where pw.person_id = ${id} and w.deleted_at is null) then 1 else 0 end`;

/** Sets the flag of the persons `ids` (a subquery or list) that are wrong. */
const recompute = (
  ids: RawBuilder<unknown>,
) => sql`update persons set public = ${hasLiveWork(sql.raw('persons.id'))}
  where persons.id in ${ids} and public <> ${hasLiveWork(sql.raw('persons.id'))}`;

const TRIGGERS = {
  sqlite: [
    ['person_work_insert_public', 'after insert on person_work', sql`(new.person_id)`],
    ['person_work_delete_public', 'after delete on person_work', sql`(old.person_id)`],
    [
      'person_work_update_public',
      'after update of person_id, work_id on person_work',
      sql`(old.person_id, new.person_id)`,
    ],
    [
      'works_deleted_public',
      'after update of deleted_at on works when (old.deleted_at is null) <> (new.deleted_at is null)',
      sql`(select person_id from person_work where work_id = new.id)`,
    ],
    [
      'works_delete_public',
      'after delete on works',
      sql`(select person_id from person_work where work_id = old.id)`,
    ],
  ],
} as const;

const publicLive = (row: 'new' | 'old') => sql.raw(`(${row}.deleted_at is null and ${row}.public = 1)`);

async function sqliteUp(db: Db): Promise<void> {
  for (const [name, when, ids] of TRIGGERS.sqlite)
    await sql`create trigger ${sql.id(name)} ${sql.raw(when)} begin ${recompute(ids)}; end`.execute(db);
  const count = (name: string, event: string, delta: RawBuilder<unknown>, when: RawBuilder<unknown>) =>
    sql`create trigger ${sql.id(name)} after ${sql.raw(event)} on persons when ${when}
      begin update live_row_counts set n = n + ${delta} where name = ${sql.lit(PUBLIC_PERSONS)}; end`.execute(
      db,
    );
  await count('persons_insert_public_count', 'insert', sql`1`, publicLive('new'));
  await count('persons_delete_public_count', 'delete', sql`-1`, publicLive('old'));
  await count(
    'persons_update_public_count',
    'update of deleted_at, public',
    sql`${publicLive('new')} - ${publicLive('old')}`,
    sql`${publicLive('new')} <> ${publicLive('old')}`,
  );
}

// PostgreSQL: statement triggers with transition tables (as migration 0005), so a bulk load
// of a million links updates each person once per statement, not once per row. UPDATE OF a
// column cannot have transition tables: the update triggers compare old and new rows instead.
const PG_FUNCTIONS: [string, string, string, RawBuilder<unknown>][] = [
  [
    'person_work_insert_public',
    'insert on person_work',
    'new table as new_rows',
    sql`(select person_id from new_rows)`,
  ],
  [
    'person_work_delete_public',
    'delete on person_work',
    'old table as old_rows',
    sql`(select person_id from old_rows)`,
  ],
  [
    'person_work_update_public',
    'update on person_work',
    'old table as old_rows new table as new_rows',
    sql`(select person_id from old_rows union select person_id from new_rows)`,
  ],
  [
    'works_deleted_public',
    'update on works',
    'old table as old_rows new table as new_rows',
    sql`(select pw.person_id from old_rows o join new_rows n on n.id = o.id
      join person_work pw on pw.work_id = n.id where (o.deleted_at is null) <> (n.deleted_at is null))`,
  ],
  [
    'works_delete_public',
    'delete on works',
    'old table as old_rows',
    sql`(select pw.person_id from old_rows o join person_work pw on pw.work_id = o.id)`,
  ],
];

const pgPublicCount = (rows: string) =>
  sql.raw(`(select count(*) from ${rows} where deleted_at is null and public = 1)`);

const PG_COUNTS: [string, string, string, RawBuilder<unknown>][] = [
  ['persons_insert_public_count', 'insert', 'new table as new_rows', pgPublicCount('new_rows')],
  ['persons_delete_public_count', 'delete', 'old table as old_rows', sql`-${pgPublicCount('old_rows')}`],
  [
    'persons_update_public_count',
    'update',
    'old table as old_rows new table as new_rows',
    sql`${pgPublicCount('new_rows')} - ${pgPublicCount('old_rows')}`,
  ],
];

async function postgresUp(db: Db): Promise<void> {
  for (const [name, event, transition, ids] of PG_FUNCTIONS)
    await pgStatementTrigger(db, name, event, transition, recompute(ids));
  for (const [name, op, transition, delta] of PG_COUNTS) {
    const body = sql`update live_row_counts set n = n + ${delta} where name = ${sql.lit(PUBLIC_PERSONS)}`;
    await pgStatementTrigger(db, name, `${op} on persons`, transition, body);
  }
  await sql`create function persons_truncate_public_count() returns trigger language plpgsql as $$
    begin update live_row_counts set n = 0 where name = ${sql.lit(PUBLIC_PERSONS)}; return null; end $$`.execute(
    db,
  );
  await sql`create trigger persons_truncate_public_count after truncate on persons
    for each statement execute function persons_truncate_public_count()`.execute(db);
}

const ALL_TRIGGERS = [
  ...TRIGGERS.sqlite.map(([name, when]) => [name, when.split(' on ')[1]!.split(' ')[0]!] as const),
  ...(['insert', 'delete', 'update', 'truncate'] as const).map(
    (op) => [`persons_${op}_public_count`, 'persons'] as const,
  ),
];

export function publicPersons({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      await sql`alter table persons add column public ${sql.raw(pg ? 'smallint' : 'integer')} not null default 0
        check (public in (0, 1))`.execute(db);
      await sql`update persons set public = 1 where ${hasLiveWork(sql.raw('persons.id'))} = 1`.execute(db);
      // The public lists' pages: keyset on (sort_key, id) over exactly the rows they show.
      await sql`create index persons_public_sort on persons (sort_key, id)
        where deleted_at is null and public = 1`.execute(db);
      await sql`insert into live_row_counts (name, n) select ${sql.lit(PUBLIC_PERSONS)}, count(*)
        from persons where deleted_at is null and public = 1`.execute(db);
      await (pg ? postgresUp(db) : sqliteUp(db));
    },

    async down(db: Db) {
      for (const [name, table] of ALL_TRIGGERS) {
        if (pg) {
          await sql`drop trigger if exists ${sql.id(name)} on ${sql.table(table)}`.execute(db);
          await sql`drop function if exists ${sql.id(name)}()`.execute(db);
        } else await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      }
      await sql`delete from live_row_counts where name = ${sql.lit(PUBLIC_PERSONS)}`.execute(db);
      await sql`drop index if exists persons_public_sort`.execute(db);
      await sql`alter table persons drop column public`.execute(db);
    },
  };
}
