// 0007-list-ranks for persons (docs/decisions/0052-ranked-search-index.md): `persons.list_rank`
// following (sort_key, id) and `persons_ranked_fts`, a contentless FTS5 table whose rowid is that
// rank, kept exact by the same triggers, so a person search page also reads only its own
// matches. SQLite only; PostgreSQL: nothing.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** The spacing storage/list-rank.ts uses (RANK_GAP); fixed here, as a migration must be. */
const GAP = 2 ** 24;
const TABLE = 'persons';
const FTS = 'persons_ranked_fts';

async function sqliteUp(db: Db): Promise<void> {
  await sql`alter table persons add column list_rank integer`.execute(db);
  await sql`create unique index persons_rank on persons (list_rank)`.execute(db);
  await sql`create index persons_unranked on persons (id) where list_rank is null`.execute(db);
  await sql`create virtual table persons_ranked_fts using fts5(search_text, content='', detail=none,
    columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8')`.execute(db);
  await sql`create trigger persons_ranked_fts_insert after insert on persons when new.list_rank is not null
    begin insert into persons_ranked_fts(rowid, search_text) values (new.list_rank, new.search_text); end`.execute(
    db,
  );
  await sql`create trigger persons_ranked_fts_delete after delete on persons when old.list_rank is not null
    begin insert into persons_ranked_fts(persons_ranked_fts, rowid, search_text)
      values ('delete', old.list_rank, old.search_text); end`.execute(db);
  // As for works (0007): one trigger, steps in this order, not fired again by its own update.
  await sql`create trigger persons_ranked_fts_update after update of list_rank, search_text, sort_key on persons
    when old.list_rank is not new.list_rank or old.search_text is not new.search_text
      or old.sort_key is not new.sort_key
    begin
      insert into persons_ranked_fts(persons_ranked_fts, rowid, search_text)
        select 'delete', old.list_rank, old.search_text where old.list_rank is not null;
      update persons set list_rank = null
        where id = new.id and old.sort_key is not new.sort_key and list_rank is not null;
      insert into persons_ranked_fts(rowid, search_text)
        select new.list_rank, new.search_text
        where new.list_rank is not null and old.sort_key is new.sort_key;
    end`.execute(db);
  await sql`update persons set list_rank = ranked.n * ${GAP}
    from (select id, row_number() over (order by sort_key, id) as n from persons) as ranked
    where persons.id = ranked.id`.execute(db);
  await sql`insert into persons_ranked_fts(persons_ranked_fts) values ('optimize')`.execute(db);
}

async function sqliteDown(db: Db): Promise<void> {
  for (const trigger of ['insert', 'delete', 'update'])
    await sql`drop trigger if exists ${sql.id(`${FTS}_${trigger}`)}`.execute(db);
  await sql`drop table if exists ${sql.table(FTS)}`.execute(db);
  await sql`drop index if exists persons_unranked`.execute(db);
  await sql`drop index if exists persons_rank`.execute(db);
  await sql`alter table ${sql.table(TABLE)} drop column list_rank`.execute(db);
}

export function personListRanks({ dialect }: MigrationContext): Migration {
  return {
    async up(db: Db) {
      if (dialect === 'sqlite') await sqliteUp(db);
    },
    async down(db: Db) {
      if (dialect === 'sqlite') await sqliteDown(db);
    },
  };
}
