// A person's life dates (`geboren`, `gestorben`) as their own resource (ADR 0026): stored in the
// person's row, versioned by their own `life_dates_updated_at` (null: the person's `created_at`),
// so a person's PUT and a life dates' PUT neither clear nor outdate each other. They exist
// exactly as long as the person does: a deleted person's life dates are gone (410), and a moved
// slug moves them too.
import { sql, type Kysely } from 'kysely';
import { param, prepare } from '../../storage/index.ts';
import type { Lookup } from '../model.ts';
import type { DB } from '../tables.ts';
import { isValidSlug, resolveSlug } from '../slugs.ts';
import {
  ChangedMeanwhileError,
  compareAndSet,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
} from '../shared/index.ts';
import { resolveOptions, type StoreOptions } from '../store-options.ts';
import { lockSubjects, subject } from '../changes.ts';

/** What the life dates' representations show. */
export interface LifeDates {
  /** The person's id and slug: the resource is addressed by its person. */
  readonly id: number;
  readonly slug: string;
  /** The person's names, shown by the HTML page (a rename is a new version of it). */
  readonly vorname: string;
  readonly nachname: string;
  readonly geboren: number | null;
  readonly gestorben: number | null;
  /** The person is public (ADR 0062): else only they and staff see the life dates. */
  readonly isPublic: boolean;
  readonly updatedAt: Date;
}

export interface LifeDatesInput {
  readonly geboren: number | null;
  readonly gestorben: number | null;
}

export interface LifeDatesStore {
  bySlug(slug: string): Promise<Lookup<LifeDates>>;
  byId(id: number): Promise<Lookup<LifeDates>>;
  /**
   * Replaces both years of a live person; null when there is none. With `expectedUpdatedAt`:
   * ChangedMeanwhileError (nothing written) unless the life dates still have that version.
   */
  replace(id: number, input: LifeDatesInput, expect?: WriteExpectation): Promise<LifeDates | null>;
}

interface Row {
  readonly id: number;
  readonly slug: string;
  readonly vorname: string;
  readonly nachname: string;
  readonly geboren: number | null;
  readonly gestorben: number | null;
  readonly version: string;
  readonly deleted_at: string | null;
  readonly public: number;
}

/** The life dates' version: their own time once written, else the person's creation. */
const VERSION = sql<string>`coalesce(persons.life_dates_updated_at, persons.created_at)`;

function lifeDatesQuery(db: Kysely<DB>) {
  return db
    .selectFrom('persons')
    .select([
      'persons.id',
      'persons.slug',
      'persons.vorname',
      'persons.nachname',
      'persons.geboren',
      'persons.gestorben',
      'persons.deleted_at',
      'persons.public',
    ])
    .select(VERSION.as('version'));
}

const BY_ID = prepare<{ id: number }, Row, DB>((db: Kysely<DB>) =>
  lifeDatesQuery(db).where('persons.id', '=', param<number>('id')),
);

const BY_SLUG = prepare<{ slug: string }, Row, DB>((db: Kysely<DB>) =>
  lifeDatesQuery(db).where('persons.slug', '=', param<string>('slug')),
);

function toLookup(rows: readonly Row[]): Lookup<LifeDates> {
  const row = rows[0];
  if (!row) return null;
  if (row.deleted_at !== null) return row.public === 1 ? { gone: true } : { gone: true, privateTo: row.id };
  const { id, slug, vorname, nachname, geboren, gestorben, version } = row;
  const isPublic = row.public === 1;
  return {
    found: { id, slug, vorname, nachname, geboren, gestorben, isPublic, updatedAt: new Date(version) },
  };
}

export async function loadLifeDates(db: Kysely<DB>, id: number): Promise<Lookup<LifeDates>> {
  return toLookup(await BY_ID.execute(db, { id }));
}

async function loadBySlug(db: Kysely<DB>, slug: string): Promise<Lookup<LifeDates>> {
  if (!isValidSlug(slug)) return null;
  const found = toLookup(await BY_SLUG.execute(db, { slug }));
  if (found !== null) return found;
  const resolution = await resolveSlug(db, 'person', slug);
  return resolution && 'id' in resolution ? loadLifeDates(db, resolution.id) : resolution;
}

export function createLifeDatesStore(db: Kysely<DB>, options?: StoreOptions): LifeDatesStore {
  const { now } = resolveOptions(db, options);
  return {
    byId: (id) => (Number.isSafeInteger(id) && id > 0 ? loadLifeDates(db, id) : Promise.resolve(null)),
    bySlug: (slug) => loadBySlug(db, slug),
    replace(id, input, expect) {
      const expected = expectedText(expect);
      return compareAndSet(expected, () =>
        db.transaction().execute(async (trx) => {
          await lockSubjects(trx, [subject.person(id)]);
          const current = await trx
            .selectFrom('persons')
            .select(VERSION.as('version'))
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (!current) return null;
          const previous = expected ?? current.version;
          // Compare-and-set on the life dates' own version, in the one UPDATE that writes them.
          const written = await trx
            .updateTable('persons')
            .set({
              geboren: input.geboren,
              gestorben: input.gestorben,
              life_dates_updated_at: nextUpdatedAt(now(), previous),
            })
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .where(VERSION, '=', previous)
            .executeTakeFirst();
          if (written.numUpdatedRows === 0n) throw new ChangedMeanwhileError(`life dates of person ${id}`);
          const loaded = await loadLifeDates(trx, id);
          if (!loaded || !('found' in loaded)) throw new Error(`person ${id} vanished while being written`);
          return loaded.found;
        }),
      );
    },
  };
}
