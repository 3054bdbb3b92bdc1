// Persons and works as a hold needs them: references by slug or id (301/410/404 like their own
// resources), and the id of the live work a `werk` field names.
import type { Kysely } from 'kysely';
import type { Lookup, PersonRef, WorkRef } from '../model.ts';
import { resolveSlug } from '../slugs.ts';
import type { DB } from '../tables.ts';
import type { WorkKey } from './model.ts';

type Key = { readonly id: number } | { readonly slug: string };

export async function personLookup(db: Kysely<DB>, key: Key): Promise<Lookup<PersonRef>> {
  const row = await db
    .selectFrom('persons')
    .select(['id', 'slug', 'vorname', 'nachname', 'deleted_at'])
    .where('id' in key ? 'id' : 'slug', '=', 'id' in key ? key.id : key.slug)
    .executeTakeFirst();
  if (row) {
    if (row.deleted_at !== null) return { gone: true };
    return { found: { id: row.id, slug: row.slug, vorname: row.vorname, nachname: row.nachname } };
  }
  if ('id' in key) return null;
  const moved = await resolveSlug(db, 'person', key.slug);
  return moved && !('id' in moved) ? moved : null;
}

export async function workLookup(db: Kysely<DB>, key: Key): Promise<Lookup<WorkRef>> {
  const row = await db
    .selectFrom('works')
    .select(['id', 'slug', 'titel', 'deleted_at'])
    .where('id' in key ? 'id' : 'slug', '=', 'id' in key ? key.id : key.slug)
    .executeTakeFirst();
  if (row) {
    if (row.deleted_at !== null) return { gone: true };
    return { found: { id: row.id, slug: row.slug, titel: row.titel } };
  }
  if ('id' in key) return null;
  const moved = await resolveSlug(db, 'work', key.slug);
  return moved && !('id' in moved) ? moved : null;
}

/** The id of the live work a key names (an old slug is followed), or why there is none. */
export async function workIdOf(db: Kysely<DB>, key: WorkKey): Promise<number | 'unknown-work' | 'work-gone'> {
  if ('id' in key) return Number.isSafeInteger(key.id) && key.id > 0 ? key.id : 'unknown-work';
  let resolution = await resolveSlug(db, 'work', key.slug);
  if (resolution && 'movedTo' in resolution) resolution = await resolveSlug(db, 'work', resolution.movedTo);
  if (resolution === null || 'movedTo' in resolution) return 'unknown-work';
  if ('gone' in resolution) return 'work-gone';
  return resolution.id;
}
