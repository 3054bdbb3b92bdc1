// The ranked search index of one listed table (docs/decisions/0052-ranked-search-index.md),
// shared by migrations 0007 (works) and 0008 (persons). SQLite: the table gets a sparse
// `list_rank` following (sort_key, id), and `<table>_ranked_fts`, a contentless FTS5 table whose
// rowid is that rank, so `match … and rowid >= :rank order by rowid limit 21` reads the matches
// in list order and stops after the page. Triggers keep it exact: a changed text or rank moves
// the entry, a changed sort key takes the rank away (the store places the row again,
// storage/list-rank.ts; until then searches use the earlier plans). Existing rows are numbered
// here. PostgreSQL: nothing (its plans are unchanged).
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;
type RankedTable = 'works' | 'persons';

/** The spacing storage/list-rank.ts uses (RANK_GAP); fixed here, as a migration must be. */
const GAP = 2 ** 24;

async function sqliteUp(db: Db, name: RankedTable): Promise<void> {
  // Names are one of two literals, never input: raw is safe and keeps the DDL readable.
  const table = sql.raw(name);
  const fts = sql.raw(`${name}_ranked_fts`);
  const trigger = (what: string) => sql.raw(`${name}_ranked_fts_${what}`);
  await sql`alter table ${table} add column list_rank integer`.execute(db);
  await sql`create unique index ${sql.raw(`${name}_rank`)} on ${table} (list_rank)`.execute(db);
  // Finds rows still to be placed without reading the table.
  await sql`create index ${sql.raw(`${name}_unranked`)} on ${table} (id) where list_rank is null`.execute(db);
  // detail=none, columnsize=0: only which rows hold a term is needed (no phrases, no ranking).
  await sql`create virtual table ${fts} using fts5(search_text, content='', detail=none,
    columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8')`.execute(db);
  await sql`create trigger ${trigger('insert')} after insert on ${table} when new.list_rank is not null
    begin insert into ${fts}(rowid, search_text) values (new.list_rank, new.search_text); end`.execute(db);
  await sql`create trigger ${trigger('delete')} after delete on ${table} when old.list_rank is not null
    begin insert into ${fts}(${fts}, rowid, search_text)
      values ('delete', old.list_rank, old.search_text); end`.execute(db);
  // One trigger for all three columns, so the steps run in this order whatever a statement
  // changes. Its own update (rank to null) does not fire it again (recursive triggers are off).
  await sql`create trigger ${trigger('update')} after update of list_rank, search_text, sort_key on ${table}
    when old.list_rank is not new.list_rank or old.search_text is not new.search_text
      or old.sort_key is not new.sort_key
    begin
      insert into ${fts}(${fts}, rowid, search_text)
        select 'delete', old.list_rank, old.search_text where old.list_rank is not null;
      update ${table} set list_rank = null
        where id = new.id and old.sort_key is not new.sort_key and list_rank is not null;
      insert into ${fts}(rowid, search_text)
        select new.list_rank, new.search_text
        where new.list_rank is not null and old.sort_key is new.sort_key;
    end`.execute(db);
  await sql`update ${table} set list_rank = ranked.n * ${GAP}
    from (select id, row_number() over (order by sort_key, id) as n from ${table}) as ranked
    where ${table}.id = ranked.id`.execute(db);
  await sql`insert into ${fts}(${fts}) values ('optimize')`.execute(db);
}

async function sqliteDown(db: Db, name: RankedTable): Promise<void> {
  for (const what of ['insert', 'delete', 'update'])
    await sql`drop trigger if exists ${sql.id(`${name}_ranked_fts_${what}`)}`.execute(db);
  await sql`drop table if exists ${sql.id(`${name}_ranked_fts`)}`.execute(db);
  await sql`drop index if exists ${sql.id(`${name}_unranked`)}`.execute(db);
  await sql`drop index if exists ${sql.id(`${name}_rank`)}`.execute(db);
  await sql`alter table ${sql.table(name)} drop column list_rank`.execute(db);
}

export function rankedIndex(name: RankedTable, { dialect }: MigrationContext): Migration {
  return {
    async up(db: Db) {
      if (dialect === 'sqlite') await sqliteUp(db, name);
    },
    async down(db: Db) {
      if (dialect === 'sqlite') await sqliteDown(db, name);
    },
  };
}
