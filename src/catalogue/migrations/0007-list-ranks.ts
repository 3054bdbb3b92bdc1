// Search pages that cost what the page holds (docs/decisions/0052-ranked-search-index.md). SQLite:
// works get a sparse `list_rank` following (sort_key, id), and `works_ranked_fts`, a contentless
// FTS5 table whose rowid is that rank, so `match … and rowid >= :rank order by rowid limit 21`
// reads the matches in list order and stops after the page. Triggers keep it exact: a changed
// text or rank moves the entry, a changed sort key takes the rank away (the store places the row
// again, storage/list-rank.ts; until then searches use the earlier plans). Existing rows are
// numbered here. PostgreSQL: nothing (its plans are unchanged).
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** The spacing storage/list-rank.ts uses (RANK_GAP); fixed here, as a migration must be. */
const GAP = 2 ** 24;

async function sqliteUp(db: Db): Promise<void> {
  await sql`alter table works add column list_rank integer`.execute(db);
  await sql`create unique index works_rank on works (list_rank)`.execute(db);
  // Finds rows still to be placed without reading the table.
  await sql`create index works_unranked on works (id) where list_rank is null`.execute(db);
  // detail=none, columnsize=0: only which rows hold a term is needed (no phrases, no ranking).
  await sql`create virtual table works_ranked_fts using fts5(search_text, content='', detail=none,
    columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8')`.execute(db);
  await sql`create trigger works_ranked_fts_insert after insert on works when new.list_rank is not null
    begin insert into works_ranked_fts(rowid, search_text) values (new.list_rank, new.search_text); end`.execute(
    db,
  );
  await sql`create trigger works_ranked_fts_delete after delete on works when old.list_rank is not null
    begin insert into works_ranked_fts(works_ranked_fts, rowid, search_text)
      values ('delete', old.list_rank, old.search_text); end`.execute(db);
  // One trigger for all three columns, so the steps run in this order whatever a statement
  // changes. Its own update (rank to null) does not fire it again (recursive triggers are off).
  await sql`create trigger works_ranked_fts_update after update of list_rank, search_text, sort_key on works
    when old.list_rank is not new.list_rank or old.search_text is not new.search_text
      or old.sort_key is not new.sort_key
    begin
      insert into works_ranked_fts(works_ranked_fts, rowid, search_text)
        select 'delete', old.list_rank, old.search_text where old.list_rank is not null;
      update works set list_rank = null
        where id = new.id and old.sort_key is not new.sort_key and list_rank is not null;
      insert into works_ranked_fts(rowid, search_text)
        select new.list_rank, new.search_text
        where new.list_rank is not null and old.sort_key is new.sort_key;
    end`.execute(db);
  await sql`update works set list_rank = ranked.n * ${GAP}
    from (select id, row_number() over (order by sort_key, id) as n from works) as ranked
    where works.id = ranked.id`.execute(db);
  await sql`insert into works_ranked_fts(works_ranked_fts) values ('optimize')`.execute(db);
}

async function sqliteDown(db: Db): Promise<void> {
  for (const trigger of ['works_ranked_fts_insert', 'works_ranked_fts_delete', 'works_ranked_fts_update'])
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists works_ranked_fts`.execute(db);
  await sql`drop index if exists works_unranked`.execute(db);
  await sql`drop index if exists works_rank`.execute(db);
  await sql`alter table works drop column list_rank`.execute(db);
}

export function listRanks({ dialect }: MigrationContext): Migration {
  return {
    async up(db: Db) {
      if (dialect === 'sqlite') await sqliteUp(db);
    },
    async down(db: Db) {
      if (dialect === 'sqlite') await sqliteDown(db);
    },
  };
}
