// What committed writes changed, for the representation cache (ADR 0088), and the catalogue
// writers' lock order. Triggers record each written row's subjects in `change_log` (migration
// 0022); `changeFeed` reads what was added since its last read. Tables without finer tracking
// still move the one counter of migration 0003 (ADR 0048): a new value means everything changed.
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { ChangeBatch } from '../http/cache/index.ts';
import {
  detectDialect,
  immediateReadOf,
  param,
  prepare,
  serialSharedRead,
  sharedRead,
  statementName,
  withStatementName,
  type CommitMark,
  type Database,
  type PreparedQuery,
  type ReadNow,
} from '../storage/index.ts';
import type { DB } from './tables.ts';

const COUNTER = prepare<Record<string, never>, { n: string | number }, DB>((db: Kysely<DB>) =>
  db.selectFrom('change_counter').select('n').where('id', '=', 1),
);

function valueOf(row: { n: unknown } | undefined): string {
  if (!row) throw new Error('change_counter has no row: is the database migrated?');
  return String(row.n);
}

/** The counter's current value (the health check's read; tables of migration 0003's kind move it). */
export async function changeCount(db: Kysely<DB>): Promise<string> {
  return valueOf(await COUNTER.executeTakeFirst(db, {}));
}

/**
 * A value that moves with every change the cache would see — a row added to `change_log` or the
 * counter moved — for tests and operators asking "did that write anything?". Not for the cache.
 */
export async function changeMark(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ n: unknown }>`select count(*) as n from change_log`.execute(db);
  return `${String(rows[0]?.n)}:${await changeCount(db)}`;
}

/**
 * Moves the counter without changing anything else: every process's representation cache drops
 * what it holds at its next request. For a change the cache's feed would not see otherwise:
 * a log-in limit reached, after which no remembered Basic answer may be served (ADR 0069).
 */
export async function bumpChangeCounter(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable('change_counter')
    .set((eb) => ({ n: eb('n', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** A person's and a work's subject are these followed by the id (lockShowing builds them in SQL). */
const subjectPrefix = { person: 'person:', work: 'work:' } as const;

/** The subject names the triggers write (migrations 0022, 0029) and resources declare (dependsOn). */
export const subject = {
  /** Anything of the person's row, account or links. */
  person: (id: number) => `${subjectPrefix.person}${id}`,
  /** Anything of the work's row, links, copies, loans and holds. */
  work: (id: number) => `${subjectPrefix.work}${id}`,
  /** What other pages show of a person: its names, URL and existence (ADR 0098). */
  personName: (id: number) => `person-name:${id}`,
  /** What other pages show of a work: its title, URL, order and existence (ADR 0098). */
  workName: (id: number) => `work-name:${id}`,
  /** A member's loans (any of them borrowed, renewed or returned). */
  loansOf: (personId: number) => `loans-of:${personId}`,
  /** A member's holds. */
  holdsOf: (personId: number) => `holds-of:${personId}`,
} as const;

/** The collections' subjects: any row of theirs written, or (`work-names`) any work's name. */
export const collection = {
  persons: 'persons',
  works: 'works',
  workNames: 'work-names',
  /** The decades of persons' works (person_decades, migration 0031): the persons list's facet. */
  personDecades: 'person-decades',
  copies: 'copies',
  loans: 'loans',
  holds: 'holds',
} as const;

/**
 * Taken by every write that may change who is staff (an account's role, lock or removal, a
 * person's delete): "the last staff account stays" is checked under it (ADR 0077), so two staff
 * demoting each other at once leave one. Such writes are rare; edits and loans never take it.
 */
export const STAFF_SUBJECT = 'accounts:staff';

/**
 * The catalogue's lock order (ADR 0088): a write transaction's first step takes the subjects it
 * will write, as transaction-scoped advisory locks in one sorted order (PostgreSQL; SQLite's
 * BEGIN IMMEDIATE admits one writer anyway). Then the reads the write depends on happen under
 * them — a generated slug is still free at the insert (`slugs:person`), the row has the version
 * the caller saw — and two writers of overlapping subjects queue instead of deadlocking, while
 * writers of different subjects share nothing. A transaction that locks a row with `SELECT …
 * FOR UPDATE` must name that row's subject here first. `everything`: a writer whose subjects
 * are not known up front (an import) waits for every other writer and holds them all off.
 */
export async function lockSubjects(
  trx: Kysely<DB>,
  subjects: readonly string[],
  everything = false,
): Promise<void> {
  if (detectDialect(trx) !== 'postgres') return;
  await sql`select lock_subjects(${[...subjects]}::text[], ${everything})`.execute(trx);
}

type ShowingTable = 'persons' | 'works' | 'copies';

/** Per table: the subjects of the row `id` and of what shows it (ADR 0024), as a text[]. */
function showingOf(table: ShowingTable): RawBuilder<string[]> {
  const [person, work] = [subjectPrefix.person, subjectPrefix.work];
  const id = param<number>('id');
  switch (table) {
    case 'persons':
      return sql`array[${person} || ${id}] || array(select ${work} || work_id from person_work
        where person_id = ${id})`;
    case 'works':
      return sql`array[${work} || ${id}] || array(select ${person} || person_id from person_work
        where work_id = ${id})`;
    case 'copies':
      return sql`array(select ${work} || work_id from copies where id = ${id}) || array(select
        ${person} || person_work.person_id from copies join person_work
        on person_work.work_id = copies.work_id where copies.id = ${id})`;
  }
}

const LOCK_SHOWING = Object.fromEntries(
  (['persons', 'works', 'copies'] as const).map((table) => [
    table,
    prepare<{ id: number; also: string[] }, { locked: unknown }, DB>((db: Kysely<DB>) =>
      db.selectNoFrom(
        sql`lock_subjects(${showingOf(table)} || ${param<string[]>('also')}::text[], false)`.as('locked'),
      ),
    ),
  ]),
) as Record<ShowingTable, PreparedQuery<{ id: number; also: string[] }, { locked: unknown }, DB>>;

/**
 * `lockSubjects` of the subjects a write to a person's, work's or copy's row locks: the row's and
 * those showing it (ADR 0024), and `also`. One prepared statement: the links are read by the
 * statement that takes the locks, so a write pays no round trip for them (none at all on SQLite).
 */
export async function lockShowing(
  trx: Kysely<DB>,
  table: ShowingTable,
  id: number,
  also: readonly string[] = [],
): Promise<void> {
  if (detectDialect(trx) !== 'postgres') return;
  await LOCK_SHOWING[table].execute(trx, { id, also: [...also] });
}

/** Reads what changed since the previous call: the subjects, or everything. */
type Feed = () => ChangeBatch | Promise<ChangeBatch>;

/** A batch from the subjects recorded: `*` (a TRUNCATE) means everything. */
function batchOf(subjects: readonly string[]): ChangeBatch {
  return subjects.includes('*') ? 'everything' : [...new Set(subjects)];
}

type Top = { n: unknown; top: number | null } | undefined;
type Added = readonly { seq: number; subject: string }[];

const TOP_SQL =
  'select (select n from change_counter where id = 1) as n, (select max(seq) from change_log) as top';
const SINCE_SQL = 'select seq, subject from change_log where seq > ? order by seq';
const OLDEST_SQL = 'select min(seq) as low from change_log';

/**
 * SQLite: one writer at a time, so the log's sequence numbers follow the commit order. A read
 * compares the counter and the newest sequence number (one statement, synchronously while the
 * connection is free, ADR 0066), and only after a write reads the rows added. With a commit
 * mark (ADR 0100) not even that while nothing was committed since the last read.
 */
function sqliteFeed(database: Database<DB>, side?: SideReader, mark?: CommitMark): Feed {
  const { db } = database;
  // A side connection reads at once even while a write transaction holds the main one.
  const readNow = side ? sideReadNow(side) : immediateReadOf(db);
  let counter: string | undefined;
  let seen: number | undefined;

  /** A batch from the first statement alone, or the sequence number to read the rows after. */
  const decide = (top: Top): ChangeBatch | number => {
    const n = valueOf(top);
    const newest = Number(top!.top ?? 0);
    if (counter !== n || seen === undefined) {
      counter = n;
      seen = newest;
      return 'everything';
    }
    return newest === seen ? [] : seen;
  };
  const finish = (from: number, added: Added, low: number | null): ChangeBatch => {
    for (const r of added) seen = Math.max(seen ?? 0, Number(r.seq));
    // Pruned past what this process last saw: it cannot say what changed.
    if (Number(low ?? 0) > from + 1) return 'everything';
    return batchOf(added.map((r) => r.subject));
  };

  const run = async <R>(text: string, parameters: readonly unknown[] = []): Promise<R[]> =>
    (await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows;
  const shared = sharedRead(async (): Promise<ChangeBatch> => {
    const next = decide((await run<NonNullable<Top>>(TOP_SQL))[0]);
    if (typeof next !== 'number') return next;
    const added = await run<Added[number]>(SINCE_SQL, [next]);
    const low = (await run<{ low: number | null }>(OLDEST_SQL))[0]?.low ?? null;
    return finish(next, added, low);
  });
  if (readNow === undefined) return shared;
  const read = (): ChangeBatch | Promise<ChangeBatch> => {
    // Synchronously while the connection is free, else queued (each statement alike).
    const top = readNow(TOP_SQL, []);
    if (top === undefined) return shared();
    const next = decide(top[0] as Top);
    if (typeof next !== 'number') return next;
    const added = readNow(SINCE_SQL, [next]) as Added | undefined;
    const low = readNow(OLDEST_SQL, []);
    if (added === undefined || low === undefined) {
      seen = next; // read the rows again the queued way
      return shared();
    }
    return finish(next, added, (low[0] as { low: number | null } | undefined)?.low ?? null);
  };
  if (mark === undefined) return read;
  // The mark as it was before the last read that answered at once: the same now, no commit since.
  let readAt: string | undefined;
  return () => {
    const now = mark.read();
    if (now !== undefined && now === readAt) return [];
    const batch = read();
    readAt = batch instanceof Promise ? undefined : now;
    return batch;
  };
}

/** A second, read-only SQLite connection to the same file (node:sqlite's DatabaseSync). */
export interface SideReader {
  prepare(sql: string): { all(...parameters: never[]): unknown[] };
}

/** readNow on the side connection: undefined (then the queued way) if SQLite refuses for a moment. */
function sideReadNow(side: SideReader): ReadNow {
  const statements = new Map<string, ReturnType<SideReader['prepare']>>();
  return (text, parameters) => {
    try {
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = side.prepare(text)));
      return statement.all(...(parameters as never[])) as Record<string, unknown>[];
    } catch {
      return undefined;
    }
  };
}

/**
 * PostgreSQL's read: this snapshot, the counter, whether history this process has not seen was
 * pruned, and the subjects of the transactions committed in this snapshot but not in `$1` (the
 * previous read's): writers commit in any order, so a number proves nothing.
 */
const PG_FEED_SQL = `select
  pg_current_snapshot()::text as snap,
  (select n from change_counter where id = 1)::text as n,
  (select txid >= pg_snapshot_xmin($1::pg_snapshot) from change_log_horizon where id = 1) as lost,
  (select string_agg(distinct subject, ' ') from change_log
    where txid >= pg_snapshot_xmin($1::pg_snapshot)
      and not pg_visible_in_snapshot(txid, $1::pg_snapshot)) as changed`;
const PG_FEED_NAME = statementName(PG_FEED_SQL);

/** The read's one row as [snap, n, lost, changed]. */
type FeedRow = readonly [string, string, boolean | null, string | null];

/**
 * PostgreSQL: one named statement shared by the callers of one event-loop turn (ADR 0068), on
 * the database's own connection beside the pool (ADR 0105): cheaper than a pooled query, and
 * never queued behind write transactions holding the pool. (Through Kysely where there is none.)
 */
function postgresFeed(database: Database<DB>): Feed {
  const { db, own } = database;
  const query = async (since: string | null): Promise<FeedRow> => {
    if (own) return (await own.query(PG_FEED_NAME, PG_FEED_SQL, [since]))[0] as unknown as FeedRow;
    const { rows } = await db.executeQuery<{
      snap: string;
      n: string;
      lost: boolean | null;
      changed: string | null;
    }>(withStatementName(CompiledQuery.raw(PG_FEED_SQL, [since]), PG_FEED_NAME));
    const row = rows[0]!;
    return [row.snap, row.n, row.lost, row.changed];
  };
  let counter: string | undefined;
  let since: string | undefined;
  /** Reads may overlap: only a read started after the one that set `since` may move it. */
  let started = 0;
  let sinceFrom = 0;
  // One read at a time on the own connection, the callers meanwhile sharing the next.
  return (own ? serialSharedRead : sharedRead)(async () => {
    const mine = (started += 1);
    const from = since;
    const [snap, n, lost, changed] = await query(from ?? null);
    const moved = mine > sinceFrom;
    if (moved) {
      sinceFrom = mine;
      since = snap;
    }
    if (from === undefined || n !== counter || lost === true) {
      if (moved) counter = n;
      return 'everything';
    }
    return batchOf(changed === null ? [] : changed.split(' '));
  });
}

/**
 * The change feed the representation cache reads before every cacheable GET: every write
 * committed before a call is in its answer or an earlier one's. On SQLite, `side` (a read-only
 * connection to the same file) lets it read while a write transaction holds the main connection:
 * in WAL mode it sees every commit, and never the writer's uncommitted rows.
 */
export function changeFeed(database: Database<DB>, side?: SideReader, mark?: CommitMark): Feed {
  return detectDialect(database.db) === 'postgres'
    ? postgresFeed(database)
    : sqliteFeed(database, side, mark);
}
