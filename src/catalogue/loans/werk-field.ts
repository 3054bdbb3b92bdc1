// The `werk` field of a borrow request names the work to lend: its URL (absolute, or
// root-relative, under the configured base; readable `/werke/{slug}` or script-style
// `/werk?id=` / `/werk?slug=`, with or without a format suffix) or just its slug.
import type { Links } from '../../http/resource/types.ts';
import { parseId } from '../shared/index.ts';
import { isValidSlug } from '../slugs.ts';
import type { WorkKey } from './model.ts';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const READABLE = /^\/werke\/([^/]+?)(?:\.(?:html|xml|json))?$/;
const SCRIPT = /^\/werk(?:\.(?:html|xml|json))?$/;

export const WERK_FIELD_PROBLEM = 'must be the URL of a work of this library or its slug';

/** The work a field value names, or null when it names none (→ 422 with WERK_FIELD_PROBLEM). */
export function parseWerkField(value: unknown, links: Links): WorkKey | null {
  // A JSON client may send back a link object as the representations write it.
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'url' in value) {
    value = (value as { url: unknown }).url;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text.length === 0 || text.length > 2048) return null;
  if (isValidSlug(text)) return { slug: text };
  const path = pathUnderBase(text, links);
  return path === null ? null : workKeyOfPath(path);
}

/** `/werke/faust` for a URL under the base (absolute or root-relative), else null. */
export function pathUnderBase(text: string, links: Links): string | null {
  const base = SCHEME.test(text) ? links.absolute('/') : links.relative('/');
  if (!SCHEME.test(text) && !text.startsWith('/')) return null;
  if (text.startsWith('//')) return null; // scheme-relative: another host
  const sameBase = SCHEME.test(text)
    ? text.toLowerCase().startsWith(base.toLowerCase())
    : text.startsWith(base);
  return sameBase ? `/${text.slice(base.length)}` : null;
}

function workKeyOfPath(path: string): WorkKey | null {
  let url: URL;
  try {
    url = new URL(path, 'http://work.invalid');
  } catch {
    return null;
  }
  const readable = READABLE.exec(url.pathname);
  if (readable) {
    let slug: string;
    try {
      slug = decodeURIComponent(readable[1] ?? '');
    } catch {
      return null;
    }
    return isValidSlug(slug) ? { slug } : null;
  }
  if (SCRIPT.test(url.pathname)) {
    const id = url.searchParams.get('id');
    if (id !== null) {
      const n = parseId(id);
      return n === null ? null : { id: n };
    }
    const slug = url.searchParams.get('slug');
    if (slug !== null) return isValidSlug(slug) ? { slug } : null;
  }
  return null;
}
