// Finer subjects (ADR 0098, refining ADR 0088's of migration 0022): a row's write records the
// subjects of what it changed, not only of the row.
// - What other pages show of a work (its title, URL, order, existence) is `work-name:<id>` (and
//   the collection `work-names`), recorded only when those columns change: a loan touches its
//   work's version (ADR 0024), which drops the work's page, not its persons' pages, which show
//   the title. Likewise `person-name:<id>` for what a work's page shows of its persons.
// - Loans and holds name their member's lists (`loans-of:<id>`, `holds-of:<id>`) instead of the
//   member's own page, which shows neither.
// Recreates the triggers of migration 0022 under the same names; `down` puts 0022's back.
import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationContext } from '../../storage/index.ts';
import { CHANGE_SUBJECTS as SUBJECTS_0022 } from './0022-change-log.ts';

type Db = Kysely<unknown>;

/** A subject as SQL over the row `r`; with `when`, recorded only when one of those columns changed. */
export interface ChangeSubject {
  readonly subject: string;
  readonly when?: readonly string[];
}

const WORK_NAME = ['slug', 'titel', 'sort_key', 'deleted_at'] as const;
const PERSON_NAME = ['slug', 'vorname', 'nachname', 'deleted_at'] as const;

/**
 * Per table, the subjects a row's write changes. One declaration for both engines;
 * `change-triggers.test.ts` fails when a table a cached representation reads has none.
 */
export const CHANGE_SUBJECTS: Readonly<Record<string, readonly ChangeSubject[]>> = {
  persons: [
    { subject: `'person:' || r.id` },
    { subject: `'persons'` },
    { subject: `'person-name:' || r.id`, when: PERSON_NAME },
  ],
  works: [
    { subject: `'work:' || r.id` },
    { subject: `'works'` },
    { subject: `'work-name:' || r.id`, when: WORK_NAME },
    { subject: `'work-names'`, when: WORK_NAME },
  ],
  // A person shows its works and a work its persons; the lists show counts and names.
  person_work: [
    { subject: `'person:' || r.person_id` },
    { subject: `'work:' || r.work_id` },
    { subject: `'persons'` },
    { subject: `'works'` },
  ],
  // A person shows its account's user name; the public persons are those with one.
  accounts: [{ subject: `'person:' || r.person_id` }, { subject: `'persons'` }],
  slug_history: [{ subject: `r.kind || ':' || r.target_id` }],
  loans: [
    { subject: `'work:' || r.work_id` },
    { subject: `'loans-of:' || r.person_id` },
    { subject: `'loans'` },
  ],
  copies: [{ subject: `'work:' || r.work_id` }, { subject: `'copies'` }],
  holds: [
    { subject: `'work:' || r.work_id` },
    { subject: `'holds-of:' || r.person_id` },
    { subject: `'holds'` },
  ],
};

/** 0022's declaration in this shape: every subject on every write. */
const UNCONDITIONAL_0022: Record<string, readonly ChangeSubject[]> = Object.fromEntries(
  Object.entries(SUBJECTS_0022).map(([table, list]) => [table, list.map((subject) => ({ subject }))]),
);

const OPERATIONS = ['insert', 'update', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];

/** `(a.c1 is distinct from b.c1 or …)`, in the spelling each engine accepts. */
function changed(columns: readonly string[], a: string, b: string, pg: boolean): string {
  const differ = pg ? 'is distinct from' : 'is not';
  return `(${columns.map((c) => `${a}.${c} ${differ} ${b}.${c}`).join(' or ')})`;
}

export function sqliteInserts(subjects: readonly ChangeSubject[], op: Operation): string {
  const rows = op === 'insert' ? ['new'] : op === 'delete' ? ['old'] : ['old', 'new'];
  return rows
    .flatMap((row) =>
      subjects.map(({ subject, when }) => {
        const value = subject.replaceAll('r.', `${row}.`);
        return op === 'update' && when
          ? `insert into change_log (subject) select ${value} where ${changed(when, 'old', 'new', false)};`
          : `insert into change_log (subject) values (${value});`;
      }),
    )
    .join(' ');
}

async function sqliteTriggers(db: Db, map: Record<string, readonly ChangeSubject[]>): Promise<void> {
  for (const [table, subjects] of Object.entries(map))
    for (const op of OPERATIONS) {
      const name = sql.id(`${table}_${op}_log_change`);
      await sql`drop trigger if exists ${name}`.execute(db);
      await sql`create trigger ${name} after ${sql.raw(op)} on ${sql.table(table)}
        begin ${sql.raw(sqliteInserts(subjects, op))} end`.execute(db);
    }
}

/** PostgreSQL, per statement: the subjects of the transition tables' rows. */
function pgSelect(subjects: readonly ChangeSubject[], op: Operation): string {
  const sides =
    op === 'insert'
      ? [['changed_new', null]]
      : op === 'delete'
        ? [['changed_old', null]]
        : [
            ['changed_old', 'changed_new'],
            ['changed_new', 'changed_old'],
          ];
  return sides
    .flatMap(([from, other]) =>
      subjects.map(({ subject, when }) =>
        other && when
          ? // A row whose columns changed, or that has no counterpart (its id changed).
            `select ${subject} as s from ${from} r left join ${other} o on o.id = r.id
              where o.id is null or ${changed(when, 'o', 'r', true)}`
          : `select ${subject} as s from ${from} r`,
      ),
    )
    .join(' union ');
}

async function pgTriggers(db: Db, map: Record<string, readonly ChangeSubject[]>): Promise<void> {
  for (const [table, subjects] of Object.entries(map))
    for (const op of OPERATIONS) {
      const fn = `${table}_${op}_log_change`;
      // The body of migration 0022's functions but for the subjects (pruning included).
      await sql`create or replace function ${sql.id(fn)}() returns trigger language plpgsql as $$
        begin
          insert into change_log (subject) select distinct s from (${sql.raw(pgSelect(subjects, op))}) subjects
            where s is not null;
          if random() < 0.001 then perform prune_change_log(); end if;
          return null;
        end $$`.execute(db);
    }
}

export function subjectsByWhatChanged({ dialect }: MigrationContext): Migration {
  const pg = dialect === 'postgres';
  const write = (map: Record<string, readonly ChangeSubject[]>) => (db: Db) =>
    pg ? pgTriggers(db, map) : sqliteTriggers(db, map);
  return { up: write(CHANGE_SUBJECTS), down: write(UNCONDITIONAL_0022) };
}
