// PostgreSQL: search in list order (docs/decisions/0065-postgres-term-index.md). For works and
// persons a side table `<table>_terms (term, sort_key, id)`, primary key in that order, holding
// for every live row each lexeme of its tsvector and each lexeme's prefixes of 1–3 letters
// (`search_term_keys`), so one word is a b-tree range already in (sort_key, id) order
// (storage/term-index.ts). Statement triggers keep it exact for every write path, bulk loads
// included (one insert per statement, from the transition tables). SQLite: nothing (ADR 0052).
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

const TABLES = ['works', 'persons'] as const;

/** A row is indexed while live; these changes move its keys. */
const CHANGED = `(o.search_vector is distinct from n.search_vector or o.sort_key is distinct from n.sort_key
  or (o.deleted_at is null) <> (n.deleted_at is null))`;

async function termIndex(db: Db, table: string): Promise<void> {
  const terms = `${table}_terms`;
  await sql
    .raw(
      `create table ${terms} (term text collate "C" not null, sort_key text collate "C" not null,
      id integer not null)`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ${terms} (term, sort_key, id) select k, sort_key, id
      from ${table}, search_term_keys(search_vector) as k where deleted_at is null`,
    )
    .execute(db);
  // Built after the fill (one sort instead of a million inserts into the b-tree).
  await sql.raw(`alter table ${terms} add primary key (term, sort_key, id)`).execute(db);
  await sql.raw(`analyze ${terms}`).execute(db);
  const body = (statements: string) => `language plpgsql as $$ begin ${statements}; return null; end $$`;
  const insert = (from: string, row: string, where: string) =>
    `insert into ${terms} (term, sort_key, id) select k, ${row}.sort_key, ${row}.id
      from ${from}, search_term_keys(${row}.search_vector) as k where ${where}`;
  const remove = (from: string, where: string) =>
    `delete from ${terms} as t using ${from}, search_term_keys(o.search_vector) as k
      where ${where} and t.term = k and t.sort_key = o.sort_key and t.id = o.id`;
  const functions: Record<string, string> = {
    insert: insert('new_rows as n', 'n', 'n.deleted_at is null'),
    delete: remove('old_rows as o', 'o.deleted_at is null'),
    // Ids never change, so old and new rows pair by id.
    update: `${remove('old_rows as o join new_rows as n on n.id = o.id', `o.deleted_at is null and ${CHANGED}`)};
      ${insert('old_rows as o join new_rows as n on n.id = o.id', 'n', `n.deleted_at is null and ${CHANGED}`)}`,
    truncate: `truncate ${terms}`,
  };
  for (const [op, statements] of Object.entries(functions)) {
    const name = `${terms}_${op}`;
    await sql.raw(`create function ${name}() returns trigger ${body(statements)}`).execute(db);
    const transition =
      op === 'insert'
        ? 'referencing new table as new_rows'
        : op === 'delete'
          ? 'referencing old table as old_rows'
          : op === 'update'
            ? 'referencing old table as old_rows new table as new_rows'
            : '';
    await sql
      .raw(
        `create trigger ${name} after ${op} on ${table} ${transition} for each statement execute function ${name}()`,
      )
      .execute(db);
  }
}

export function termIndexes({ dialect }: MigrationContext): Migration {
  return {
    async up(db: Db) {
      if (dialect !== 'postgres') return;
      // The keys of one tsvector: its lexemes and their prefixes of 1–3 letters, each once.
      await sql`create function search_term_keys(v tsvector) returns setof text
        language sql immutable parallel safe as $$
          select lexeme from unnest(v)
          union select left(lexeme, n) from unnest(v), generate_series(1, 3) as n where length(lexeme) > n
        $$`.execute(db);
      for (const table of TABLES) await termIndex(db, table);
    },
    async down(db: Db) {
      if (dialect !== 'postgres') return;
      for (const table of TABLES) {
        const terms = `${table}_terms`;
        for (const op of ['insert', 'delete', 'update', 'truncate']) {
          await sql.raw(`drop trigger ${terms}_${op} on ${table}`).execute(db);
          await sql.raw(`drop function ${terms}_${op}()`).execute(db);
        }
        await sql.raw(`drop table ${terms}`).execute(db);
      }
      await sql`drop function search_term_keys(tsvector)`.execute(db);
    },
  };
}
