// PostgreSQL: a work's decade in the term index (ADR 0113). Every live work with a year gets one
// more entry in `works_terms`: the key `work_decade_term(jahr)` (` dekade 1900`), beside its
// words' keys, in the same (term, sort_key, id) order. A search with a decade filter then reads
// the decade as one more group of keys (a group's keys are alternatives: several decades), so the
// term scans intersect it with the words in list order, driven by the rarer (storage/term-index.ts)
// — before, the scan read the words' entries and tested each one's work for its decade, and
// `der` with one decade read about 3,000 works to find a page and its counts. The key starts with
// a space: no lexeme holds one, nor any prefix of one (migration 0014), so no word names it.
// Statement triggers keep the entries for every write path, each opening with its early exit
// (ADR 0108); the words' triggers (0014) leave these keys alone, and their truncate empties the
// whole table. SQLite: nothing (its ranked index, ADR 0052, holds words only).
// Migrations are frozen once applied: change neither the SQL nor the names, add a migration.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { pgStatementTrigger } from './statement-trigger.ts';

type Db = Kysely<unknown>;

/** The key a row has while live with a year (null otherwise). */
const keyOf = (row: string) => `case when ${row}.deleted_at is null then work_decade_term(${row}.jahr) end`;
/** Old and new rows paired by id (ids never change). */
const pairs = 'old_rows as o join new_rows as n on n.id = o.id';
/** A pair whose entry moves: a key or a sort key that differs, an entry gained or lost. */
const moved = `(${keyOf('o')}, o.sort_key) is distinct from (${keyOf('n')}, n.sort_key)`;

const insertFrom = (from: string, row: string, where: string) =>
  `insert into works_terms (term, sort_key, id) select ${keyOf(row)}, ${row}.sort_key, ${row}.id
    from ${from} where ${keyOf(row)} is not null and ${where}`;
const removeFrom = (from: string, where: string) =>
  `delete from works_terms as t using ${from}
    where t.term = ${keyOf('o')} and t.sort_key = o.sort_key and t.id = o.id and ${where}`;

/** Name, event, transition tables, the early exit's condition, and the statements. */
const TRIGGERS: [string, string, string, string, string][] = [
  [
    'works_decade_terms_insert',
    'insert on works',
    'new table as new_rows',
    `exists (select 1 from new_rows as n where ${keyOf('n')} is not null)`,
    insertFrom('new_rows as n', 'n', 'true'),
  ],
  [
    'works_decade_terms_delete',
    'delete on works',
    'old table as old_rows',
    `exists (select 1 from old_rows as o where ${keyOf('o')} is not null)`,
    removeFrom('old_rows as o', 'true'),
  ],
  [
    'works_decade_terms_update',
    'update on works',
    'old table as old_rows new table as new_rows',
    `exists (select 1 from ${pairs} where ${moved})`,
    `${removeFrom(pairs, moved)}; ${insertFrom(pairs, 'n', moved)}`,
  ],
];

/** As migration 0032 marks a guard, so that its test finds one in every statement trigger. */
const guarded = (condition: string, statements: string) =>
  sql.raw(`/* early exit */ if not (${condition}) then return null; end if; /* early exit */ ${statements}`);

export function decadeTerms({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Db) {
      if (!pg) return;
      // The floored decade (`-5` → `-10`), as migration 0025's index and works/facets.ts write it.
      await sql`create function work_decade_term(jahr integer) returns text
        language sql immutable parallel safe as $$
          select ' dekade ' || (jahr - ((jahr % 10) + 10) % 10) $$`.execute(db);
      // In key order: the entries go into the b-tree in its own order, not at random.
      await sql`insert into works_terms (term, sort_key, id)
        select work_decade_term(jahr), sort_key, id from works where deleted_at is null and jahr is not null
        order by 1, 2, 3`.execute(db);
      await sql`analyze works_terms`.execute(db);
      for (const [name, event, transition, condition, statements] of TRIGGERS)
        await pgStatementTrigger(db, name, event, transition, guarded(condition, statements));
    },
    async down(db: Db) {
      if (!pg) return;
      for (const [name] of TRIGGERS) {
        await sql`drop trigger ${sql.id(name)} on works`.execute(db);
        await sql`drop function ${sql.id(name)}()`.execute(db);
      }
      await sql`delete from works_terms where term like ' dekade %'`.execute(db);
      await sql`drop function work_decade_term(integer)`.execute(db);
    },
  };
}
