// Slugs of persons and works: unique per kind, never reused. A slug that once named a resource
// stays reserved (slug_history) so its URL keeps answering 301, and a deleted resource keeps
// its slug so its URL keeps answering 410 (docs/urls.md).
import type { Kysely } from 'kysely';
import { SLUG_PATTERN } from '../http/body/index.ts';
import { ConflictError, param, prepare, slugCandidate, slugify } from '../storage/index.ts';
import type { DB, SlugKind } from './tables.ts';

const TABLE = { person: 'persons', work: 'works' } as const;
const FALLBACK = { person: 'person', work: 'werk' } as const;

/** A slug of a person or work: the URL space's pattern (the body layer's `url-or-slug` uses it too), at most 100 characters. */
export function isValidSlug(slug: string): boolean {
  return slug.length <= 100 && SLUG_PATTERN.test(slug);
}

/** The first free slug among `base`, `base-2`, `base-3`, … (own current/old slugs count as free). */
export async function uniqueSlug(
  db: Kysely<DB>,
  kind: SlugKind,
  text: string,
  ownId?: number,
): Promise<string> {
  const base = slugify(text, FALLBACK[kind]);
  const like = `${base}-%`; // slugs hold no % or _, so LIKE matches literally
  const current = await db
    .selectFrom(TABLE[kind])
    .select(['slug', 'id'])
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', like)]))
    .execute();
  const old = await db
    .selectFrom('slug_history')
    .select(['slug', 'target_id as id'])
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', like)]))
    .execute();
  const taken = new Set([...current, ...old].filter((row) => row.id !== ownId).map((row) => row.slug));
  for (let n = 1; ; n += 1) {
    const candidate = slugCandidate(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}

/** Whether a slug is free for a new resource of this kind (neither current nor historic). */
export async function slugIsFree(db: Kysely<DB>, kind: SlugKind, slug: string): Promise<boolean> {
  const current = await db.selectFrom(TABLE[kind]).select('id').where('slug', '=', slug).executeTakeFirst();
  if (current) return false;
  const old = await db
    .selectFrom('slug_history')
    .select('target_id')
    .where('kind', '=', kind)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return !old;
}

/**
 * The slug of a resource being created: the one the client chose (checked and free, else a
 * TypeError or a 409-bound ConflictError), or the first free one made from `text`.
 */
export async function slugForNew(
  db: Kysely<DB>,
  kind: SlugKind,
  chosen: string | undefined,
  text: string,
): Promise<string> {
  if (chosen === undefined) return uniqueSlug(db, kind, text);
  if (!isValidSlug(chosen)) throw new TypeError(`invalid slug "${chosen}"`);
  if (!(await slugIsFree(db, kind, chosen)))
    throw new ConflictError(`slug "${chosen}" is taken`, `${TABLE[kind]}.slug`);
  return chosen;
}

/** Records that `oldSlug` now redirects to resource `id`; drops a history entry for `newSlug`. */
export async function rememberSlug(
  db: Kysely<DB>,
  kind: SlugKind,
  id: number,
  oldSlug: string,
  newSlug: string,
  now: string,
): Promise<void> {
  // Renamed back to an earlier name: that slug is current again, not a redirect.
  await db.deleteFrom('slug_history').where('kind', '=', kind).where('slug', '=', newSlug).execute();
  await db
    .insertInto('slug_history')
    .values({ kind, slug: oldSlug, target_id: id, created_at: now })
    .execute();
}

/**
 * A resource's id and deletion by its current slug: the first read of every slug resolution (a
 * write naming a person, a moved URL), so prepared per kind (ADR 0047, 0068).
 */
const bySlugIn = (table: (typeof TABLE)[SlugKind]) =>
  prepare<{ slug: string }, { id: number; deleted_at: string | null }, DB>((db: Kysely<DB>) =>
    db.selectFrom(table).select(['id', 'deleted_at']).where('slug', '=', param<string>('slug')),
  );
const BY_CURRENT_SLUG = Object.fromEntries(
  Object.entries(TABLE).map(([kind, table]) => [kind, bySlugIn(table)]),
) as Record<SlugKind, ReturnType<typeof bySlugIn>>;

export type SlugResolution =
  { readonly id: number } | { readonly movedTo: string } | { readonly gone: true } | null;

/** What a slug names now: a live resource's id, its newer slug, a deletion, or nothing. */
export async function resolveSlug(db: Kysely<DB>, kind: SlugKind, slug: string): Promise<SlugResolution> {
  if (!isValidSlug(slug)) return null;
  const table = TABLE[kind];
  const row = await BY_CURRENT_SLUG[kind].executeTakeFirst(db, { slug });
  if (row) return row.deleted_at === null ? { id: row.id } : { gone: true };
  const old = await db
    .selectFrom('slug_history')
    .select('target_id')
    .where('kind', '=', kind)
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!old) return null;
  const target = await db
    .selectFrom(table)
    .select(['slug', 'deleted_at'])
    .where('id', '=', old.target_id)
    .executeTakeFirst();
  if (!target) return null;
  return target.deleted_at === null ? { movedTo: target.slug } : { gone: true };
}

/** How often a create with a generated slug is retried after another process took that slug. */
const GENERATED_SLUG_ATTEMPTS = 5;

/**
 * Runs a create. When the slug was generated (not chosen by the client) and another process
 * inserted the same slug between our check and our insert (PostgreSQL, READ COMMITTED: the
 * UNIQUE index refuses ours → ConflictError, and the transaction is spoiled), runs the whole
 * create again: it then generates the next free slug. A chosen slug's conflict is passed on (409).
 */
export async function createWithGeneratedSlug<T>(generated: boolean, create: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!generated || !(error instanceof ConflictError) || attempt >= GENERATED_SLUG_ATTEMPTS) throw error;
    }
  }
}
