// Indexes for the staff lists and the notice lists (ADR 0092): each list pages on its own key
// (ADR 0043), so each gets an index in that order over just the rows it shows — the open loans
// by due date (the overdue loans are a prefix of it), the copies kept on the hold shelf by the
// end of their pickup time, and the notices by id within a state and within a person. Partial
// indexes, which both engines have.
import { sql, type Kysely, type Migration } from 'kysely';

type Db = Kysely<unknown>;

const INDEXES = [
  ['loans_open_due', sql`loans (due_at, id) where returned_at is null`],
  ['holds_shelf', sql`holds (expires_at, id) where ended_at is null and copy_id is not null`],
  ['notices_state_id', sql`notices (state, id)`],
  ['notices_person_id', sql`notices (person_id, id)`],
] as const;

export function staffListIndexes(): Migration {
  return {
    async up(db: Db) {
      for (const [name, on] of INDEXES) await sql`create index ${sql.id(name)} on ${on}`.execute(db);
    },
    async down(db: Db) {
      for (const [name] of [...INDEXES].reverse())
        await sql`drop index if exists ${sql.id(name)}`.execute(db);
    },
  };
}
