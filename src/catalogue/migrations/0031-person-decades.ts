// The persons list's decade facet (ADR 0102): `person_decades` holds, per person and decade, how
// many of the person's live works have their `jahr` in it, and the person's sort key, so a
// decade's persons come in list order from one index range (`person_decades_list`), as a decade's
// works do from migration 0025's index. Triggers keep it on every write path (a link added,
// removed or moved; a work's year changed, deleted, undeleted or removed; a person renamed or
// removed), also for tools that write with plain SQL. Like migration 0013 they recompute the
// rows of the persons concerned instead of counting up and down, so the order in which a cascade
// removes rows cannot make them wrong. A soft-deleted person keeps its rows: the lists read only
// live persons. No row is shared by writers of different persons: a person's rows are written only
// by writes that already take that person's lock (ADR 0088) and its row (`touchPersonsOf`).
// The table's own writes record `person-decades` in change_log, which the persons list depends on.
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { pgStatementTrigger } from './statement-trigger.ts';

type Db = Kysely<unknown>;

/** The floored decade of `jahr` (`-5` → `-10`), as migration 0025 and works/facets.ts write it. */
const decadeOf = (jahr: string) => sql.raw(`(${jahr} - ((${jahr} % 10) + 10) % 10)`);

/** The rows the persons `ids` (a subquery or list) should have. */
const shouldHave = (ids: RawBuilder<unknown>) => sql`select pw.person_id as person_id,
    ${decadeOf('w.jahr')} as decade, p.sort_key as sort_key, count(*) as work_count
  from person_work pw join works w on w.id = pw.work_id join persons p on p.id = pw.person_id
  where pw.person_id in ${ids} and w.deleted_at is null and w.jahr is not null
  group by pw.person_id, ${decadeOf('w.jahr')}, p.sort_key`;

/**
 * Brings the rows of the persons `ids` to what their links and works say: rows no longer borne out
 * are removed, the others inserted or corrected (a row already right is not written).
 */
const recompute = (ids: RawBuilder<unknown>): RawBuilder<unknown>[] => [
  sql`delete from person_decades where person_id in ${ids} and not exists (select 1 from person_work pw
    join works w on w.id = pw.work_id where pw.person_id = person_decades.person_id
    and w.deleted_at is null and w.jahr is not null and ${decadeOf('w.jahr')} = person_decades.decade)`,
  // `where true`: SQLite's parser needs it before an upsert's `on conflict` after a select.
  sql`insert into person_decades (person_id, decade, sort_key, work_count)
    select person_id, decade, sort_key, work_count from (${shouldHave(ids)}) wanted where true
    on conflict (person_id, decade) do update set work_count = excluded.work_count, sort_key = excluded.sort_key
    where person_decades.work_count <> excluded.work_count or person_decades.sort_key <> excluded.sort_key`,
];

/** The persons linked to the works `workIds` (SQL). */
const personsOfWorks = (workIds: string) =>
  sql.raw(`(select person_id from person_work where work_id in ${workIds})`);

const SQLITE_TRIGGERS: [string, string, RawBuilder<unknown>[]][] = [
  ['person_work_insert_decades', 'after insert on person_work', [sql`(new.person_id)`]],
  ['person_work_delete_decades', 'after delete on person_work', [sql`(old.person_id)`]],
  [
    'person_work_update_decades',
    'after update of person_id, work_id on person_work',
    [sql`(old.person_id, new.person_id)`],
  ],
  [
    'works_update_decades',
    `after update of jahr, deleted_at on works when (old.deleted_at is null) <> (new.deleted_at is null)
      or old.jahr is not new.jahr`,
    [personsOfWorks('(new.id)')],
  ],
  ['works_delete_decades', 'after delete on works', [personsOfWorks('(old.id)')]],
];

async function sqliteUp(db: Db): Promise<void> {
  for (const [name, when, [ids]] of SQLITE_TRIGGERS)
    await sql`create trigger ${sql.id(name)} ${sql.raw(when)} begin
      ${sql.join(recompute(ids!), sql`; `)}; end`.execute(db);
  await sql`create trigger persons_sort_key_decades after update of sort_key on persons
    when old.sort_key is not new.sort_key
    begin update person_decades set sort_key = new.sort_key where person_id = new.id; end`.execute(db);
  await sql`create trigger persons_delete_decades after delete on persons
    begin delete from person_decades where person_id = old.id; end`.execute(db);
  for (const op of ['insert', 'update', 'delete'])
    await sql`create trigger ${sql.id(`person_decades_${op}_log_change`)} after ${sql.raw(op)} on person_decades
      begin insert into change_log (subject) values ('person-decades'); end`.execute(db);
}

// PostgreSQL: statement triggers with transition tables, so a bulk load recomputes each person
// once per statement, not once per row, at a cost linear in the rows concerned whatever the
// planner's statistics say (ADR 0102). Each trigger first collects the persons concerned into an
// array from its transition tables alone (no join: they have no statistics). The two functions
// below then read everything else per person or per work, each read an index probe: `lateral`
// subqueries fenced with `offset 0` (the planner cannot flatten them into a hash or merge join
// over a whole table), scalar subqueries, a `ctid` list. `enable_seqscan = off` keeps a probe of
// a table without statistics from becoming a scan (its default estimate, 1/200 of the rows a
// key, can make a scan look as cheap as the index).

/** A person's (`id`, SQL) live decades and their work counts, read by index. */
const liveDecadesOf = (id: RawBuilder<unknown>) => sql`select ${decadeOf('w.jahr')} as decade,
    count(*) as work_count
  from (select work_id from person_work where person_id = ${id} offset 0) pw
  cross join lateral (select jahr from works where id = pw.work_id and deleted_at is null
    and jahr is not null offset 0) w
  group by 1`;

const PG_HELPERS = [
  sql`create function person_decades_persons_of(work_ids integer[]) returns integer[]
    language sql stable set enable_seqscan = off as $$
    select array(select distinct pw.person_id from unnest(work_ids) as w(id)
      cross join lateral (select person_id from person_work where work_id = w.id offset 0) pw) $$`,
  // Rows no longer borne out are removed, the others inserted or corrected (a row already
  // right is not written).
  sql`create function person_decades_recompute(ids integer[]) returns void
    language plpgsql set enable_seqscan = off as $$ begin
    delete from person_decades where ctid = any (array(
      select kept.ctid from unnest(ids) as u(id)
      cross join lateral (select array(select decade from (${liveDecadesOf(sql`u.id`)}) l) as decades
        offset 0) wanted
      cross join lateral (select ctid, decade from person_decades where person_id = u.id offset 0) kept
      where kept.decade <> all (wanted.decades)));
    insert into person_decades (person_id, decade, sort_key, work_count)
      select u.id, l.decade, (select sort_key from persons where id = u.id), l.work_count
      from unnest(ids) as u(id) cross join lateral (${liveDecadesOf(sql`u.id`)}) l
      on conflict (person_id, decade) do update set work_count = excluded.work_count, sort_key = excluded.sort_key
      where person_decades.work_count <> excluded.work_count or person_decades.sort_key <> excluded.sort_key;
    end $$`,
];

/** The persons of the works `ids` (an SQL array). */
const personsOf = (ids: string) => `person_decades_persons_of(${ids})`;
/** The ids of the rows whose `columns` changed (an SQL array; `except`, not a join). */
const changed = (columns: string) =>
  `array(select id from (select id, ${columns} from old_rows except select id, ${columns} from new_rows) c)`;

/** Name, event, transition tables, and the persons to recompute (an SQL array). */
const PG_TRIGGERS: [string, string, string, string][] = [
  [
    'person_work_insert_decades',
    'insert on person_work',
    'new table as new_rows',
    'array(select distinct person_id from new_rows)',
  ],
  [
    'person_work_delete_decades',
    'delete on person_work',
    'old table as old_rows',
    'array(select distinct person_id from old_rows)',
  ],
  [
    'person_work_update_decades',
    'update on person_work',
    'old table as old_rows new table as new_rows',
    'array(select person_id from old_rows union select person_id from new_rows)',
  ],
  [
    'works_update_decades',
    'update on works',
    'old table as old_rows new table as new_rows',
    personsOf(changed('jahr, deleted_at is null')),
  ],
  [
    'works_delete_decades',
    'delete on works',
    'old table as old_rows',
    personsOf('array(select id from old_rows)'),
  ],
  [
    'persons_update_decades',
    'update on persons',
    'old table as old_rows new table as new_rows',
    changed('sort_key'),
  ],
  // A removed person's links went first (cascade): the recompute removes its rows.
  ['persons_delete_decades', 'delete on persons', 'old table as old_rows', 'array(select id from old_rows)'],
];

async function postgresUp(db: Db): Promise<void> {
  for (const helper of PG_HELPERS) await helper.execute(db);
  for (const [name, event, transition, ids] of PG_TRIGGERS)
    await pgStatementTrigger(
      db,
      name,
      event,
      transition,
      sql`perform person_decades_recompute(${sql.raw(ids)})`,
    );
  for (const op of ['insert', 'update', 'delete'] as const) {
    const rows = op === 'delete' ? 'old_rows' : 'new_rows';
    const transition =
      op === 'update'
        ? 'old table as old_rows new table as new_rows'
        : `${op === 'delete' ? 'old' : 'new'} table as ${rows}`;
    await pgStatementTrigger(
      db,
      `person_decades_${op}_log_change`,
      `${op} on person_decades`,
      transition,
      sql`insert into change_log (subject) select 'person-decades' where exists (select 1 from ${sql.raw(rows)})`,
    );
  }
  await sql`create trigger person_decades_truncate_log_change after truncate on person_decades
    for each statement execute function count_change()`.execute(db);
}

const TRIGGERS: [string, string][] = [
  ...SQLITE_TRIGGERS.map(([name, when]) => [name, when.split(' on ')[1]!.split(' ')[0]!] as [string, string]),
  ['persons_update_decades', 'persons'],
  ['persons_sort_key_decades', 'persons'],
  ['persons_delete_decades', 'persons'],
  ['person_decades_insert_log_change', 'person_decades'],
  ['person_decades_update_log_change', 'person_decades'],
  ['person_decades_delete_log_change', 'person_decades'],
];

export function personDecades({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      await sql`create table person_decades (
        person_id integer not null references persons (id) on delete cascade,
        decade integer not null,
        sort_key ${sql.raw(pg ? 'text collate "C"' : 'text')} not null,
        work_count integer not null check (work_count > 0),
        primary key (person_id, decade))`.execute(db);
      // A decade's persons in list order: one index range per decade (ADR 0102). The sort key
      // compares bytewise on PostgreSQL too (`collate "C"`, as persons.sort_key, migration 0001),
      // or the index's order would not be the list's.
      await sql`create index person_decades_list on person_decades (decade, sort_key, person_id)`.execute(db);
      await sql`insert into person_decades (person_id, decade, sort_key, work_count)
        ${shouldHave(sql`(select id from persons)`)}`.execute(db);
      await (pg ? postgresUp(db) : sqliteUp(db));
    },
    async down(db: Db) {
      for (const [name, table] of TRIGGERS) {
        if (pg) {
          await sql`drop trigger if exists ${sql.id(name)} on ${sql.table(table)}`.execute(db);
          await sql`drop function if exists ${sql.id(name)}()`.execute(db);
        } else await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      }
      if (pg) {
        await sql`drop trigger if exists person_decades_truncate_log_change on person_decades`.execute(db);
        await sql`drop function if exists person_decades_recompute(integer[])`.execute(db);
        await sql`drop function if exists person_decades_persons_of(integer[])`.execute(db);
      }
      await sql`drop table person_decades`.execute(db);
    },
  };
}
