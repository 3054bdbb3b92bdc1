// References to other resources in request bodies, as the representations write them: an
// absolute URL (`https://library.example/personen/goethe`, also with a format suffix or the
// script form `/person?slug=goethe`), a root-relative path as HTML shows it, or a bare slug.
import type { Links } from '../../http/resource/types.ts';
import { parseId } from '../shared/index.ts';
import { isValidSlug } from '../slugs.ts';

export type RefTarget = { readonly slug: string } | { readonly id: number };

const SUFFIX = /\.(?:html|xml|json)$/;

/** Where a reference points within `collection` (`/personen`), or null when it is not one of ours. */
export function refTarget(ref: string, collection: string, script: string, links: Links): RefTarget | null {
  if (isValidSlug(ref)) return { slug: ref };
  const base = links.absolute('/');
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    return null;
  }
  const root = new URL(base);
  if (url.origin !== root.origin || url.hash !== '') return null;
  const prefix = root.pathname.replace(/\/$/, '');
  if (!url.pathname.startsWith(`${prefix}/`)) return null;
  const path = url.pathname.slice(prefix.length).replace(SUFFIX, '');
  if (path === script && url.search !== '') {
    const slug = url.searchParams.get('slug');
    if (slug !== null) return isValidSlug(slug) ? { slug } : null;
    const id = parseId(url.searchParams.get('id'));
    return id === null ? null : { id };
  }
  if (url.search !== '' || !path.startsWith(`${collection}/`)) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(path.slice(collection.length + 1));
  } catch {
    return null;
  }
  return isValidSlug(slug) ? { slug } : null;
}

/**
 * A field's references, flattened: a string, an array of strings, objects with `url` (JSON
 * links), or the XML wrapper element (`<personen><person ref="…"/></personen>` →
 * `{ person: … }`), or text with one reference per line (an HTML text area). Anything else is kept as is, so validation reports it as a wrong type.
 */
export function flattenRefs(value: unknown, inner: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => flattenRefs(v, inner));
  if (typeof value === 'object') {
    const fields = value as Record<string, unknown>;
    if (Object.hasOwn(fields, 'url')) return [fields.url];
    if (Object.hasOwn(fields, inner)) return flattenRefs(fields[inner], inner);
  }
  // Slugs and URLs hold no white space, so a text area may list one reference per line.
  if (typeof value === 'string') return value.split(/\s+/).filter((s) => s !== '');
  return [value];
}
