// Reading one person: a single prepared statement by slug or by id that brings the person, the
// account's username and the live works at once (as one JSON array: a row per work costs SQLite
// twice as much). The slug lookup is folded into it, so the common case — a current slug — costs
// one statement; only a slug the persons table does not hold goes on to the slug history (301 or
// 410). ADR 0047.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonRows, param, parseJsonRows, prepare, type JsonRows } from '../../storage/index.ts';
import type { Lookup, Person, WorkRef } from '../model.ts';
import type { DB } from '../tables.ts';
import { isValidSlug, resolveSlug } from '../slugs.ts';
import type { RefTarget } from '../writes/index.ts';

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
  /** [[id, slug, titel], …] in catalogue order. */
  readonly werke: JsonRows<[number, string, string]>;
}

/** The person's live works as a JSON array of [id, slug, titel], ordered like the works list. */
function worksOf(db: Kysely<DB>): RawBuilder<PersonRow['werke']> {
  const rows = jsonRows<[number, string, string], DB>(
    db,
    ['works.id', 'works.slug', 'works.titel'].map((c) => sql.ref(c)),
    sql`works.sort_key, works.id`,
  );
  return sql`(select ${rows} from person_work join works on works.id = person_work.work_id
    where person_work.person_id = persons.id and works.deleted_at is null)`;
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
  const werke: WorkRef[] = parseJsonRows(row.werke).map(([id, slug, titel]) => ({ id, slug, titel }));
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

/** A person's id and deletion by id: every write that names a person by id asks (ADR 0047, 0068). */
const ID_BY_ID = prepare<{ id: number }, { id: number; deleted_at: string | null }, DB>((db: Kysely<DB>) =>
  db.selectFrom('persons').select(['id', 'deleted_at']).where('id', '=', param<number>('id')),
);

/** A live person's id by id or slug (a former slug → its successor), or null. */
export async function livePersonId(db: Kysely<DB>, ref: RefTarget): Promise<number | null> {
  if ('id' in ref) {
    const row = await ID_BY_ID.executeTakeFirst(db, { id: ref.id });
    return row && row.deleted_at === null ? row.id : null;
  }
  let found = await resolveSlug(db, 'person', ref.slug);
  if (found !== null && 'movedTo' in found) found = await resolveSlug(db, 'person', found.movedTo);
  return found !== null && 'id' in found ? found.id : null;
}
