// Reading one work: a single prepared statement by slug or by id that brings the work, its live
// persons in order and its live copies with their loans and holds (copies/read.ts), the two
// lists as JSON arrays. The slug lookup is folded into it; only a slug the works table does not
// hold goes on to the slug history (301 or 410). ADR 0047.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonRows, param, parseJsonRows, prepare, type JsonRows } from '../../storage/index.ts';
import type { Lookup, PersonRef, Work } from '../model.ts';
import type { DB } from '../tables.ts';
import { isValidSlug, resolveSlug } from '../slugs.ts';
import { liveCopiesFromJson, liveCopiesJson, type CopiesJson, type ReadClock } from '../copies/index.ts';

export type { ReadClock };

interface WorkRow {
  readonly id: number;
  readonly slug: string;
  readonly titel: string;
  readonly jahr: number | null;
  readonly exemplare: number;
  readonly updated_at: string;
  readonly deleted_at: string | null;
  /** [[id, slug, vorname, nachname], …] of the live persons in order. */
  readonly personen: JsonRows<[number, string, string, string]>;
  readonly copies: CopiesJson;
}

/** The work's live persons in order, as one JSON array (a row per person would repeat the copies). */
function personsOf(db: Kysely<DB>): RawBuilder<WorkRow['personen']> {
  const rows = jsonRows<[number, string, string, string], DB>(
    db,
    ['persons.id', 'persons.slug', 'persons.vorname', 'persons.nachname'].map((c) => sql.ref(c)),
    sql.ref('person_work.position'),
  );
  return sql`(select ${rows} from person_work join persons on persons.id = person_work.person_id
    where person_work.work_id = works.id and persons.deleted_at is null)`;
}

function workQuery(db: Kysely<DB>) {
  return db
    .selectFrom('works')
    .select([
      'works.id',
      'works.slug',
      'works.titel',
      'works.jahr',
      'works.exemplare',
      'works.updated_at',
      'works.deleted_at',
    ])
    .select(personsOf(db).as('personen'))
    .select(liveCopiesJson(db).as('copies'));
}

const BY_ID = prepare<{ id: number }, WorkRow, DB>((db: Kysely<DB>) =>
  workQuery(db).where('works.id', '=', param<number>('id')),
);

const BY_SLUG = prepare<{ slug: string }, WorkRow, DB>((db: Kysely<DB>) =>
  workQuery(db).where('works.slug', '=', param<string>('slug')),
);

/**
 * The work of its row, with its copies as of the clock's moment (a copy whose hold ran out with
 * nobody waiting is free before any write stores that, ADR 0067) and `verfuegbar` counted from
 * them: the copies the page shows and the count it shows come from one snapshot.
 */
async function toLookup(db: Kysely<DB>, row: WorkRow | undefined, clock: ReadClock): Promise<Lookup<Work>> {
  if (!row) return null;
  if (row.deleted_at !== null) return { gone: true };
  const personen: PersonRef[] = parseJsonRows(row.personen).map(([id, slug, vorname, nachname]) => ({
    id,
    slug,
    vorname,
    nachname,
  }));
  const { id, slug, titel, jahr, exemplare, updated_at } = row;
  const copies = await liveCopiesFromJson(db, id, row.copies, clock);
  // `exemplare` is kept equal to the live copies by their writers (copies/count.ts); a work
  // loaded by a tool without copies rows (the bench) shows its `exemplare` and none free.
  const verfuegbar = copies.filter((c) => c.status.kind === 'verfuegbar').length;
  return {
    found: {
      id,
      slug,
      titel,
      jahr,
      exemplare,
      verfuegbar,
      personen,
      copies,
      updatedAt: new Date(updated_at),
    },
  };
}

/** A work by id with persons, availability and copies, from `db` (or a transaction). */
export async function loadWork(db: Kysely<DB>, id: number, clock: ReadClock): Promise<Lookup<Work>> {
  return toLookup(db, await BY_ID.executeTakeFirst(db, { id }), clock);
}

/** A work by current slug; a former slug → its successor (301) or gone (410). */
export async function loadWorkBySlug(db: Kysely<DB>, slug: string, clock: ReadClock): Promise<Lookup<Work>> {
  if (!isValidSlug(slug)) return null;
  const row = await BY_SLUG.executeTakeFirst(db, { slug });
  if (row !== undefined) return toLookup(db, row, clock);
  const resolution = await resolveSlug(db, 'work', slug);
  return resolution && 'id' in resolution ? loadWork(db, resolution.id, clock) : resolution;
}
