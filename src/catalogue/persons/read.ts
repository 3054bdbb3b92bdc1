// Reading one person: a single prepared statement by slug or by id that brings the person, the
// account's username and the live works at once (as one JSON array: a row per work costs SQLite
// twice as much). The slug lookup is folded into it, so the common case — a current slug — costs
// one statement; only a slug the persons table does not hold goes on to the slug history (301 or
// 410). ADR 0047.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { detectDialect, param, prepare } from '../../storage/index.ts';
import type { Lookup, Person, WorkRef } from '../model.ts';
import type { DB } from '../tables.ts';
import { isValidSlug, resolveSlug } from '../slugs.ts';

interface PersonRow {
  readonly id: number;
  readonly slug: string;
  readonly vorname: string;
  readonly nachname: string;
  readonly image: string | null;
  readonly updated_at: string;
  readonly deleted_at: string | null;
  /** 1: the person has a live work (migration 0013, ADR 0062). */
  readonly public: number;
  readonly username: string | null;
  /** [[id, slug, titel], …] in catalogue order: JSON text (SQLite) or already parsed (pg). */
  readonly werke: string | [number, string, string][];
}

/** The person's live works as a JSON array of [id, slug, titel], ordered like the works list. */
function worksOf(db: Kysely<DB>): RawBuilder<PersonRow['werke']> {
  const from = sql`from person_work join works on works.id = person_work.work_id
    where person_work.person_id = persons.id and works.deleted_at is null`;
  return detectDialect(db) === 'postgres'
    ? sql`(select coalesce(json_agg(json_build_array(works.id, works.slug, works.titel)
          order by works.sort_key, works.id), '[]'::json) ${from})`
    : sql`(select json_group_array(json_array(works.id, works.slug, works.titel)
          order by works.sort_key, works.id) ${from})`;
}

function personQuery(db: Kysely<DB>) {
  return db
    .selectFrom('persons')
    .leftJoin('accounts', 'accounts.person_id', 'persons.id')
    .select([
      'persons.id',
      'persons.slug',
      'persons.vorname',
      'persons.nachname',
      'persons.image',
      'persons.updated_at',
      'persons.deleted_at',
      // Who may see the person comes with the row: no further query (ADR 0062).
      'persons.public',
      'accounts.username',
    ])
    .select(worksOf(db).as('werke'));
}

const BY_ID = prepare<{ id: number }, PersonRow, DB>((db: Kysely<DB>) =>
  personQuery(db).where('persons.id', '=', param<number>('id')),
);

const BY_SLUG = prepare<{ slug: string }, PersonRow, DB>((db: Kysely<DB>) =>
  personQuery(db).where('persons.slug', '=', param<string>('slug')),
);

function toLookup(rows: readonly PersonRow[]): Lookup<Person> {
  const row = rows[0];
  if (!row) return null;
  if (row.deleted_at !== null) return row.public === 1 ? { gone: true } : { gone: true, privateTo: row.id };
  const list =
    typeof row.werke === 'string' ? (JSON.parse(row.werke) as [number, string, string][]) : row.werke;
  const werke: WorkRef[] = list.map(([id, slug, titel]) => ({ id, slug, titel }));
  const { id, slug, vorname, nachname, image, username, updated_at } = row;
  return {
    found: {
      id,
      slug,
      vorname,
      nachname,
      image,
      username,
      werke,
      isPublic: row.public === 1,
      updatedAt: new Date(updated_at),
    },
  };
}

/** A person by id with works and username, from `db` (or a transaction). */
export async function loadPerson(db: Kysely<DB>, id: number): Promise<Lookup<Person>> {
  return toLookup(await BY_ID.execute(db, { id }));
}

/** A person by current slug; a former slug → its successor (301) or gone (410). */
export async function loadPersonBySlug(db: Kysely<DB>, slug: string): Promise<Lookup<Person>> {
  if (!isValidSlug(slug)) return null;
  const found = toLookup(await BY_SLUG.execute(db, { slug }));
  if (found !== null) return found;
  const resolution = await resolveSlug(db, 'person', slug);
  // A current slug was handled above; between the two statements it may have been taken.
  return resolution && 'id' in resolution ? loadPerson(db, resolution.id) : resolution;
}
