// Turns the query of a single-resource script URL (`?id=` or `?slug=`) into a store lookup, and
// the lookup's answer into what the handler does: render, 301 to the new slug, 410 or 404.
import type { Outcome, RequestContext } from '../../http/resource/types.ts';
import type { Lookup } from '../model.ts';
import { isValidSlug } from '../slugs.ts';
import { gone, notFound } from './errors.ts';
import { parseId } from './ids.ts';

export interface Finder<T> {
  bySlug(slug: string): Promise<Lookup<T>>;
  byId(id: number): Promise<Lookup<T>>;
}

/** Looks the resource up by `?id=` or `?slug=`; a missing or malformed parameter is a 404. */
export async function lookUp<T>(finder: Finder<T>, ctx: RequestContext): Promise<Lookup<T>> {
  const slug = ctx.query.get('slug');
  if (slug !== null) return isValidSlug(slug) ? finder.bySlug(slug) : null;
  const id = parseId(ctx.query.get('id'));
  return id === null ? null : finder.byId(id);
}

/**
 * Resolves a lookup: the found record, or a redirect outcome when the slug moved (301 for reads;
 * writes pass 308, which keeps method and body). Throws 404/410 for nothing/deleted.
 */
export function resolve<T>(
  lookup: Lookup<T>,
  /** The collection (`/personen`, the resource at `/personen/{slug}`), or the path by slug. */
  collection: string | ((slug: string) => string),
  movedStatus: 301 | 308 = 301,
): { found: T } | { redirect: Outcome } {
  if (lookup === null) throw notFound();
  if ('gone' in lookup) throw gone();
  if ('movedTo' in lookup) {
    return {
      redirect: {
        type: 'redirect',
        status: movedStatus,
        path:
          typeof collection === 'string'
            ? `${collection}/${encodeURIComponent(lookup.movedTo)}`
            : collection(lookup.movedTo),
      },
    };
  }
  return { found: lookup.found };
}
