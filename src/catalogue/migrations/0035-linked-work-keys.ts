// A link's work key (ADR 0124): `person_work.work_sort_key` is its work's sort key while the work
// is live and null once it is deleted, so the works of some persons in list order come from one
// index (`person_work_person_keys`: person, key, work) without reading a row of `works`: a
// relevance page's exact part (works/relevance.ts) took ~400 probes of `works` for `müller` at a
// million works, most of the page's time. Triggers keep the key on every write path, also for
// tools that write with plain SQL: a link added or moved to another work takes that work's key;
// a work renamed, deleted or undeleted gives its links the new one.
// Only the key column changes in those updates, which no other trigger's subjects depend on:
// SQLite's change-log trigger on `person_work` now fires for the other columns only. PostgreSQL's
// statement triggers cannot name columns; there a work's rename also records its links' subjects
// (a work's persons were already told of it through `work-name:<id>`, ADR 0098).
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { CHANGE_SUBJECTS, sqliteInserts } from './0029-subjects-by-what-changed.ts';

type Db = Kysely<unknown>;

/** The key a link to the work `id` (SQL) should carry: the live work's sort key, else null. */
const liveKeyOf = (id: string) =>
  sql.raw(`(select sort_key from works where works.id = ${id} and works.deleted_at is null)`);

/** The columns of a link its change-log subjects depend on (all but the key). */
const LINK_COLUMNS = 'person_id, work_id, position';

async function sqliteUp(db: Db): Promise<void> {
  // First, so that neither the fill below nor the triggers' key updates record subjects.
  await sql`drop trigger person_work_update_log_change`.execute(db);
  await sql`create trigger person_work_update_log_change after update of ${sql.raw(LINK_COLUMNS)}
    on person_work begin ${sql.raw(sqliteInserts(CHANGE_SUBJECTS.person_work!, 'update'))} end`.execute(db);
  await sql`alter table person_work add column work_sort_key text`.execute(db);
  await sql`update person_work set work_sort_key = ${liveKeyOf('person_work.work_id')}`.execute(db);
  // A link added, or moved to another work, takes that work's key.
  const takeKey = sql`update person_work set work_sort_key = ${liveKeyOf('new.work_id')}
    where work_id = new.work_id and person_id = new.person_id`;
  for (const [name, event] of [
    ['person_work_insert_key', 'after insert'],
    ['person_work_update_key', 'after update of work_id'],
  ] as const)
    await sql`create trigger ${sql.id(name)} ${sql.raw(event)} on person_work begin ${takeKey}; end`.execute(
      db,
    );
  await sql`create trigger works_update_link_keys after update of sort_key, deleted_at on works
    when old.sort_key is not new.sort_key or (old.deleted_at is null) <> (new.deleted_at is null) begin
    update person_work set work_sort_key = case when new.deleted_at is null then new.sort_key end
      where work_id = new.id; end`.execute(db);
}

async function postgresUp(db: Db): Promise<void> {
  // Bytewise, as works.sort_key (migration 0001), or the index's order would not be the list's.
  await sql`alter table person_work add column work_sort_key text collate "C"`.execute(db);
  // The fill changes only the new column: the links' other triggers have nothing to do.
  await sql`alter table person_work disable trigger user`.execute(db);
  await sql`update person_work set work_sort_key = ${liveKeyOf('person_work.work_id')}`.execute(db);
  await sql`alter table person_work enable trigger user`.execute(db);
  // A row trigger before the write: the key goes in with the link, no second write of it.
  await sql`create function person_work_key() returns trigger language plpgsql as $$ begin
    new.work_sort_key := ${liveKeyOf('new.work_id')}; return new; end $$`.execute(db);
  await sql`create trigger person_work_key before insert or update of work_id on person_work
    for each row execute function person_work_key()`.execute(db);
  // Per statement, the works whose key changed; each one's links found by the primary key
  // (work_id first), never by a scan (`enable_seqscan = off`: transition tables have no
  // statistics). Most updates of works (a loan touches its work's version) change no key: the
  // guard returns before the update is planned, marked as migration 0032 marks its guards (ADR
  // 0108), which `trigger-early-exits.test.ts` requires of every statement trigger.
  const changed = `from old_rows o join new_rows n on n.id = o.id
    where o.sort_key is distinct from n.sort_key or (o.deleted_at is null) <> (n.deleted_at is null)`;
  await sql`create function works_update_link_keys() returns trigger language plpgsql
    set enable_seqscan = off as $$ begin /* early exit */ if not (exists (select 1 ${sql.raw(changed)}))
    then return null; end if; /* early exit */
    update person_work set work_sort_key = changed.key
      from (select n.id, case when n.deleted_at is null then n.sort_key end as key ${sql.raw(changed)}) changed
      where person_work.work_id = changed.id and person_work.work_sort_key is distinct from changed.key;
    return null; end $$`.execute(db);
  await sql`create trigger works_update_link_keys after update on works
    referencing old table as old_rows new table as new_rows
    for each statement execute function works_update_link_keys()`.execute(db);
}

export function linkedWorkKeys({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      await (pg ? postgresUp(db) : sqliteUp(db));
      await sql`create index person_work_person_keys on person_work (person_id, work_sort_key, work_id)`.execute(
        db,
      );
    },
    async down(db: Db) {
      await sql`drop index person_work_person_keys`.execute(db);
      if (pg) {
        await sql`drop trigger works_update_link_keys on works`.execute(db);
        await sql`drop function works_update_link_keys()`.execute(db);
        await sql`drop trigger person_work_key on person_work`.execute(db);
        await sql`drop function person_work_key()`.execute(db);
      } else {
        for (const name of ['works_update_link_keys', 'person_work_update_key', 'person_work_insert_key'])
          await sql`drop trigger ${sql.id(name)}`.execute(db);
        await sql`drop trigger person_work_update_log_change`.execute(db);
        await sql`create trigger person_work_update_log_change after update on person_work
          begin ${sql.raw(sqliteInserts(CHANGE_SUBJECTS.person_work!, 'update'))} end`.execute(db);
      }
      await sql`alter table person_work drop column work_sort_key`.execute(db);
    },
  };
}
