// PostgreSQL: every statement trigger with transition tables returns at once when its statement
// changed nothing it reads (ADR 0108). A statement trigger fires even for a statement that
// touched no row, and each function ran its statements regardless: a year's PATCH of one work
// (whose `update works set exemplare … where exemplare <> $n` matches nothing) cost PostgreSQL
// 4.3 ms in triggers, most of it `works_deleted_public`'s `update persons` — which matched no
// row, yet fired every trigger on `persons` in turn. The guard is the first statement of each
// function: `if not (<what it reads changed>) then return null; end if;`.
//
// The functions are rewritten from the catalogue itself (`pg_proc.prosrc`), so this migration
// needs no copy of the SQL that migrations 0013–0031 generated; the down migration takes the
// guard out again. SQLite's row triggers fire only for rows, and need nothing.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';

type Db = Kysely<unknown>;

/** Rows whose deletion state flipped (`old_rows`/`new_rows` joined by id). */
const flipped = '(o.deleted_at is null) <> (n.deleted_at is null)';
const pairs = 'old_rows as o join new_rows as n on n.id = o.id';
const changedTerms = `o.search_vector is distinct from n.search_vector or o.sort_key is distinct from n.sort_key or ${flipped}`;

/**
 * Finer guards where a function reads less than "some row": the same conditions its statements
 * filter on, so it exits without planning them.
 */
const GUARDS: Record<string, string> = {
  works_deleted_public: `exists (select 1 from ${pairs} where ${flipped})`,
  works_terms_update: `exists (select 1 from ${pairs} where ${changedTerms})`,
  persons_terms_update: `exists (select 1 from ${pairs} where ${changedTerms})`,
  works_update_decades: `exists (select id, jahr, deleted_at is null from old_rows
    except select id, jahr, deleted_at is null from new_rows)`,
  persons_update_decades: `exists (select id, sort_key from old_rows except select id, sort_key from new_rows)`,
};

/** The recompute the decade triggers call: nothing to do for no persons. */
const RECOMPUTE = 'person_decades_recompute';
const RECOMPUTE_GUARD = 'if coalesce(cardinality(ids), 0) = 0 then return; end if;';

const MARK = '/* early exit */';
/** `statement` between two marks, so that down finds exactly what up put in. */
const marked = (statement: string) => ` ${MARK} ${statement} ${MARK}`;

interface Fn {
  readonly oid: number;
  readonly name: string;
  readonly source: string;
  readonly oldTable: string | null;
  readonly newTable: string | null;
}

async function statementTriggerFunctions(db: Db): Promise<Fn[]> {
  const { rows } = await sql<Fn>`select p.oid, p.proname as name, p.prosrc as source,
      t.tgoldtable as "oldTable", t.tgnewtable as "newTable"
    from pg_trigger t join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and (t.tgoldtable is not null or t.tgnewtable is not null)
      and p.pronamespace = current_schema()::regnamespace
    order by p.proname`.execute(db);
  const byOid = new Map<number, Fn>();
  for (const row of rows) {
    const seen = byOid.get(row.oid);
    if (seen && (seen.oldTable !== row.oldTable || seen.newTable !== row.newTable))
      throw new Error(`0032: ${row.name} serves triggers with different transition tables`);
    byOid.set(row.oid, row);
  }
  return [...byOid.values()];
}

/** The rows any of the statement's transition tables hold. */
const anyRow = (fn: Fn) =>
  [fn.oldTable, fn.newTable]
    .filter((t): t is string => t !== null)
    .map((t) => `exists (select 1 from ${t})`)
    .join(' or ');

/** `source` with `guard` after its first `begin` (a block may open with `declare`). */
function withGuard(name: string, source: string, guard: string): string {
  const at = /^\s*(?:declare\b[\s\S]*?)?\bbegin\b/i.exec(source);
  if (!at) throw new Error(`0032: ${name} does not open with begin`);
  if (source.includes(MARK)) throw new Error(`0032: ${name} already has its guard`);
  return source.slice(0, at[0].length) + guard + source.slice(at[0].length);
}

function withoutGuard(name: string, source: string): string {
  const from = source.indexOf(` ${MARK}`);
  const to = source.indexOf(MARK, from + MARK.length + 1);
  if (from < 0 || to < 0) throw new Error(`0032: ${name} has no guard to take out`);
  return source.slice(0, from) + source.slice(to + MARK.length);
}

/** Replaces a function's body, keeping its signature, language and settings. */
async function replaceBody(db: Db, name: string, oid: number, source: string): Promise<void> {
  const { rows } = await sql<{ def: string }>`select pg_get_functiondef(${oid}::oid) as def`.execute(db);
  const def = rows[0]!.def;
  const quote = /AS (\$[a-z_]*\$)/i.exec(def)?.[1];
  if (!quote) throw new Error(`0032: ${name}'s definition has no dollar-quoted body`);
  const start = def.indexOf(quote) + quote.length;
  const end = def.lastIndexOf(quote);
  if (source.includes(quote)) throw new Error(`0032: ${name}'s body contains ${quote}`);
  await sql.raw(def.slice(0, start) + source + def.slice(end)).execute(db);
}

async function recompute(db: Db): Promise<{ oid: number; source: string } | undefined> {
  const { rows } = await sql<{ oid: number; source: string }>`select oid, prosrc as source
    from pg_proc where proname = ${RECOMPUTE} and pronamespace = current_schema()::regnamespace`.execute(db);
  return rows[0];
}

async function up(db: Db): Promise<void> {
  const functions = await statementTriggerFunctions(db);
  for (const name of Object.keys(GUARDS))
    if (!functions.some((fn) => fn.name === name)) throw new Error(`0032: no trigger function ${name}`);
  for (const fn of functions) {
    const guard = marked(`if not (${GUARDS[fn.name] ?? anyRow(fn)}) then return null; end if;`);
    await replaceBody(db, fn.name, fn.oid, withGuard(fn.name, fn.source, guard));
  }
  const helper = await recompute(db);
  if (helper) {
    await replaceBody(
      db,
      RECOMPUTE,
      helper.oid,
      withGuard(RECOMPUTE, helper.source, marked(RECOMPUTE_GUARD)),
    );
  }
}

async function down(db: Db): Promise<void> {
  for (const fn of await statementTriggerFunctions(db))
    await replaceBody(db, fn.name, fn.oid, withoutGuard(fn.name, fn.source));
  const helper = await recompute(db);
  if (helper) await replaceBody(db, RECOMPUTE, helper.oid, withoutGuard(RECOMPUTE, helper.source));
}

export function triggerEarlyExits({ dialect }: MigrationContext): Migration {
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
