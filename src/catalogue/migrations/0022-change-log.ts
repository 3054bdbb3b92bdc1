// What each write changed, recorded by triggers in its own transaction (ADR 0088, superseding the
// one change counter of ADR 0048 for these tables): every row written adds the subjects it
// shows up in — `person:12`, `work:7`, and the collections `persons`, `works`, `loans`, `holds`,
// `copies` — to `change_log`. The representation cache reads what was added since its last
// read and drops only the renderings that show one of those subjects. Inserts only: concurrent
// writers to different works and persons share no row (the counter's row was one lock all
// writers queued on until commit). The tables without finer tracking (item types, the calendar,
// and any added later) keep moving the counter, which the cache reads too: everything changed.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/**
 * Per table, the subjects a row shows up in, as SQL over the row `r`. One declaration for both
 * engines; `change-triggers.test.ts` fails when a table a cached representation reads has none.
 */
export const CHANGE_SUBJECTS: Readonly<Record<string, readonly string[]>> = {
  persons: [`'person:' || r.id`, `'persons'`],
  works: [`'work:' || r.id`, `'works'`],
  // A person shows its works and a work its persons; the lists show counts and names.
  person_work: [`'person:' || r.person_id`, `'work:' || r.work_id`, `'persons'`, `'works'`],
  // A person shows its account's user name; the public persons are those with one.
  accounts: [`'person:' || r.person_id`, `'persons'`],
  slug_history: [`r.kind || ':' || r.target_id`],
  loans: [`'work:' || r.work_id`, `'person:' || r.person_id`, `'loans'`],
  copies: [`'work:' || r.work_id`, `'copies'`],
  holds: [`'work:' || r.work_id`, `'person:' || r.person_id`, `'holds'`],
};

/** How many rows of history SQLite keeps; a cache that fell further behind drops everything. */
export const SQLITE_KEPT_CHANGES = 100_000;
/** PostgreSQL prunes (about once per this many recorded statements) all but the newest rows. */
const PG_PRUNE_ONE_IN = 1000;
const PG_KEPT_CHANGES = 100_000;

const OPERATIONS = ['insert', 'update', 'delete'] as const;
/** The advisory key of the catalogue as a whole (lock_subjects); subjects hash with a seed of their own. */
const CATALOGUE_LOCK = 0x5e1f_0088;
const SUBJECT_LOCK_SEED = 88;

function selectSubjects(table: string, from: string): string {
  return CHANGE_SUBJECTS[table]!.map((e) => `select ${e} as s from ${from} r`).join(' union ');
}

async function sqliteUp(db: Db): Promise<void> {
  await sql`create table change_log (seq integer primary key autoincrement, subject text not null)`.execute(
    db,
  );
  // History is bounded: each insert drops what fell SQLITE_KEPT_CHANGES behind (one index range).
  await sql`create trigger change_log_prune after insert on change_log
    begin delete from change_log where seq <= new.seq - ${sql.lit(SQLITE_KEPT_CHANGES)}; end`.execute(db);
  for (const table of Object.keys(CHANGE_SUBJECTS)) {
    for (const op of OPERATIONS) {
      await sql`drop trigger if exists ${sql.id(`${table}_${op}_count_change`)}`.execute(db);
      const rows = op === 'insert' ? ['new'] : op === 'delete' ? ['old'] : ['old', 'new'];
      const inserts = rows
        .flatMap((row) => CHANGE_SUBJECTS[table]!.map((e) => e.replaceAll('r.', `${row}.`)))
        .map((e) => `insert into change_log (subject) values (${e});`)
        .join(' ');
      await sql`create trigger ${sql.id(`${table}_${op}_log_change`)} after ${sql.raw(op)} on ${sql.table(table)}
        begin ${sql.raw(inserts)} end`.execute(db);
    }
  }
}

async function postgresUp(db: Db): Promise<void> {
  await sql`create table change_log (
    txid xid8 not null default pg_current_xact_id(),
    subject text not null)`.execute(db);
  await sql`create index change_log_txid on change_log (txid)`.execute(db);
  // The newest transaction whose changes were pruned: a cache that last read before it drops everything.
  await sql`create table change_log_horizon (id integer primary key check (id = 1), txid xid8 not null)`.execute(
    db,
  );
  await sql`insert into change_log_horizon (id, txid) values (1, '0')`.execute(db);
  await sql`create function prune_change_log() returns void language plpgsql as $$
    declare keep_from xid8;
    begin
      select txid into keep_from from change_log order by txid desc offset ${sql.lit(PG_KEPT_CHANGES)} limit 1;
      if keep_from is null then return; end if;
      delete from change_log where txid < keep_from;
      update change_log_horizon set txid = greatest(txid, keep_from) where id = 1;
    end $$`.execute(db);
  // The catalogue writers' lock order (ADR 0088, replacing the counter-first order of ADR 0055):
  // every writer takes the subjects it will write first, as transaction-scoped advisory locks in
  // one sorted order — shared on the catalogue as a whole, so a writer of everything (an
  // import) can still exclude all the others. Advisory locks live in the lock manager, not in a
  // row: writers of different subjects never wait for each other.
  await sql`create function lock_subjects(subjects text[], everything boolean) returns void
    language plpgsql as $$
    declare k bigint;
    begin
      if everything then perform pg_advisory_xact_lock(${sql.lit(CATALOGUE_LOCK)});
      else perform pg_advisory_xact_lock_shared(${sql.lit(CATALOGUE_LOCK)}); end if;
      for k in select distinct hashtextextended(s, ${sql.lit(SUBJECT_LOCK_SEED)}) from unnest(subjects) s order by 1 loop
        perform pg_advisory_xact_lock(k);
      end loop;
    end $$`.execute(db);
  for (const table of Object.keys(CHANGE_SUBJECTS)) {
    await sql`drop trigger if exists ${sql.id(`${table}_count_change`)} on ${sql.table(table)}`.execute(db);
    // Per statement with transition tables: a bulk load records each subject once, not per row.
    for (const op of OPERATIONS) {
      const fn = `${table}_${op}_log_change`;
      const from =
        op === 'insert'
          ? selectSubjects(table, 'changed_new')
          : op === 'delete'
            ? selectSubjects(table, 'changed_old')
            : `${selectSubjects(table, 'changed_old')} union ${selectSubjects(table, 'changed_new')}`;
      await sql`create function ${sql.id(fn)}() returns trigger language plpgsql as $$
        begin
          insert into change_log (subject) select distinct s from (${sql.raw(from)}) subjects;
          if random() < ${sql.lit(1 / PG_PRUNE_ONE_IN)} then perform prune_change_log(); end if;
          return null;
        end $$`.execute(db);
      const referencing =
        op === 'insert'
          ? 'new table as changed_new'
          : op === 'delete'
            ? 'old table as changed_old'
            : 'old table as changed_old new table as changed_new';
      await sql`create trigger ${sql.id(fn)} after ${sql.raw(op)} on ${sql.table(table)}
        referencing ${sql.raw(referencing)} for each statement execute function ${sql.id(fn)}()`.execute(db);
    }
    // TRUNCATE has no rows to name: everything changed.
    await sql`create trigger ${sql.id(`${table}_truncate_log_change`)} after truncate on ${sql.table(table)}
      for each statement execute function count_change()`.execute(db);
  }
}

async function sqliteDown(db: Db): Promise<void> {
  for (const table of Object.keys(CHANGE_SUBJECTS))
    for (const op of OPERATIONS) {
      await sql`drop trigger if exists ${sql.id(`${table}_${op}_log_change`)}`.execute(db);
      await sql`create trigger ${sql.id(`${table}_${op}_count_change`)} after ${sql.raw(op)} on ${sql.table(table)}
        begin update change_counter set n = n + 1; end`.execute(db);
    }
  await sql`drop table change_log`.execute(db);
}

async function postgresDown(db: Db): Promise<void> {
  for (const table of Object.keys(CHANGE_SUBJECTS)) {
    await sql`drop trigger if exists ${sql.id(`${table}_truncate_log_change`)} on ${sql.table(table)}`.execute(
      db,
    );
    for (const op of OPERATIONS) {
      const fn = `${table}_${op}_log_change`;
      await sql`drop trigger if exists ${sql.id(fn)} on ${sql.table(table)}`.execute(db);
      await sql`drop function if exists ${sql.id(fn)}()`.execute(db);
    }
    await sql`create trigger ${sql.id(`${table}_count_change`)}
      before insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function count_change()`.execute(db);
  }
  await sql`drop function if exists prune_change_log()`.execute(db);
  await sql`drop function if exists lock_subjects(text[], boolean)`.execute(db);
  await sql`drop table change_log_horizon`.execute(db);
  await sql`drop table change_log`.execute(db);
}

export function changeLog({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    up: (db: Db) => (pg ? postgresUp(db) : sqliteUp(db)),
    down: (db: Db) => (pg ? postgresDown(db) : sqliteDown(db)),
  };
}
