// Reading one work: a single prepared statement by slug or by id that brings the work, the
// number of its free copies (copies/free.ts) and the live persons in order (one row per person). The slug lookup
// is folded into it; only a slug the works table does not hold goes on to the slug history
// (301 or 410). ADR 0047.
import type { Kysely } from 'kysely';
import { param, prepare } from '../../storage/index.ts';
import type { Lookup, PersonRef, Work } from '../model.ts';
import type { DB } from '../tables.ts';
import { isValidSlug, resolveSlug } from '../slugs.ts';
import { isFreeCopy, liveCopies, type ReadClock } from '../copies/index.ts';

export type { ReadClock };

interface WorkRow {
  readonly id: number;
  readonly slug: string;
  readonly titel: string;
  readonly jahr: number | null;
  readonly exemplare: number;
  readonly updated_at: string;
  readonly deleted_at: string | null;
  readonly verfuegbar: number | null;
  readonly person_id: number | null;
  readonly person_slug: string | null;
  readonly person_vorname: string | null;
  readonly person_nachname: string | null;
}

function workQuery(db: Kysely<DB>) {
  return (
    db
      .selectFrom('works')
      .leftJoin('person_work', 'person_work.work_id', 'works.id')
      // Deleted persons join as NULL, and their rows are skipped below.
      .leftJoin('persons', (join) =>
        join.onRef('persons.id', '=', 'person_work.person_id').on('persons.deleted_at', 'is', null),
      )
      .select([
        'works.id',
        'works.slug',
        'works.titel',
        'works.jahr',
        'works.exemplare',
        'works.updated_at',
        'works.deleted_at',
        'persons.id as person_id',
        'persons.slug as person_slug',
        'persons.vorname as person_vorname',
        'persons.nachname as person_nachname',
      ])
      .select((eb) =>
        eb
          .selectFrom('copies')
          .select((e) => e.cast<number>(e.fn.countAll(), 'integer').as('n'))
          .whereRef('copies.work_id', '=', 'works.id')
          .where(isFreeCopy())
          .as('verfuegbar'),
      )
      .orderBy('person_work.position')
  );
}

const BY_ID = prepare<{ id: number }, WorkRow, DB>((db: Kysely<DB>) =>
  workQuery(db).where('works.id', '=', param<number>('id')),
);

const BY_SLUG = prepare<{ slug: string }, WorkRow, DB>((db: Kysely<DB>) =>
  workQuery(db).where('works.slug', '=', param<string>('slug')),
);

function toLookup(rows: readonly WorkRow[]): Lookup<Work> {
  const first = rows[0];
  if (!first) return null;
  if (first.deleted_at !== null) return { gone: true };
  const personen: PersonRef[] = [];
  for (const row of rows) {
    if (row.person_id !== null) {
      personen.push({
        id: row.person_id,
        slug: row.person_slug!,
        vorname: row.person_vorname!,
        nachname: row.person_nachname!,
      });
    }
  }
  const { id, slug, titel, jahr, exemplare, updated_at } = first;
  // `exemplare` is kept equal to the live copies by their writers (copies/count.ts); a work
  // loaded by a tool without copies rows (the bench) shows its `exemplare` and none free.
  const verfuegbar = Number(first.verfuegbar ?? 0);
  return {
    found: { id, slug, titel, jahr, exemplare, verfuegbar, personen, updatedAt: new Date(updated_at) },
  };
}

/**
 * The live work with its copies: one more prepared statement (copies/read.ts, ADR 0047). The
 * copies are as of the clock's moment (a copy whose hold ran out with nobody waiting is free
 * before any write stores that, ADR 0067), and `verfuegbar` is counted from them: the work's
 * own statement ran a moment earlier, and a loan committed in between would otherwise show a
 * copy lent beside a count that still has it free.
 */
async function withCopies(db: Kysely<DB>, found: Lookup<Work>, clock: ReadClock): Promise<Lookup<Work>> {
  if (found === null || !('found' in found)) return found;
  const copies = await liveCopies(db, found.found.id, clock);
  const verfuegbar = copies.filter((c) => c.status.kind === 'verfuegbar').length;
  return { found: { ...found.found, verfuegbar, copies } };
}

/** A work by id with persons, availability and copies, from `db` (or a transaction). */
export async function loadWork(db: Kysely<DB>, id: number, clock: ReadClock): Promise<Lookup<Work>> {
  return withCopies(db, toLookup(await BY_ID.execute(db, { id })), clock);
}

/** A work by current slug; a former slug → its successor (301) or gone (410). */
export async function loadWorkBySlug(db: Kysely<DB>, slug: string, clock: ReadClock): Promise<Lookup<Work>> {
  if (!isValidSlug(slug)) return null;
  const found = toLookup(await BY_SLUG.execute(db, { slug }));
  if (found !== null) return withCopies(db, found, clock);
  const resolution = await resolveSlug(db, 'work', slug);
  return resolution && 'id' in resolution ? loadWork(db, resolution.id, clock) : resolution;
}
