// What a PUT or DELETE at `/person?slug=` (or `?id=`) addresses: a live resource, a free slug
// (PUT creates there), or a moved one (308: the write is repeated at the new URL, method and
// body kept). A deleted resource's URL answers 410; an unknown id or an impossible slug 404.
import type { Outcome, RequestContext } from '../../http/resource/types.ts';
import type { Lookup } from '../model.ts';
import { HttpError, notFound, parseId, resolve, type Finder } from '../shared/index.ts';
import { isValidSlug } from '../slugs.ts';
import { ConflictError } from '../../storage/index.ts';

export type WriteTarget<T> =
  { readonly found: T } | { readonly free: string } | { readonly redirect: Outcome };

export async function writeTarget<T>(
  finder: Finder<T>,
  ctx: RequestContext,
  /** The resource's path by slug, for the 308 of a moved one. */
  pathOf: (slug: string) => string,
): Promise<WriteTarget<T>> {
  const slug = ctx.query.get('slug');
  const id = parseId(ctx.query.get('id'));
  let lookup: Lookup<T> = null;
  if (slug !== null) {
    if (!isValidSlug(slug)) {
      throw notFound(
        'A slug is lower-case letters and digits in words joined by single hyphens (at most 100).',
      );
    }
    lookup = await finder.bySlug(slug);
    if (lookup === null) return { free: slug };
  } else if (id !== null) {
    lookup = await finder.byId(id);
  }
  return resolve(lookup, pathOf, 308);
}

/** A slug taken between the lookup and the insert (another process won the race) → 409. */
export function conflictOf(error: unknown): never {
  if (error instanceof ConflictError) {
    throw new HttpError('SHELFMARK_CONFLICT', {
      detail: 'This URL was taken by another write meanwhile.',
      localDetail: {
        de: 'Diese Adresse wurde inzwischen anderweitig vergeben. Versuchen Sie es noch einmal.',
        en: 'This address was taken by another change meanwhile. Try again.',
      },
    });
  }
  throw error;
}
