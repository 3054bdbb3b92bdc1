// The `exemplar` field of a borrow request names one copy to lend (ADR 0082): its URL (absolute
// or root-relative under the base, `/werke/{slug}/exemplare/{nummer}`, with or without a format
// suffix), a link object carrying that URL, or its barcode as printed on it.
import type { Links } from '../../http/resource/types.ts';
import { cleanBarcode } from '../check-in/index.ts';
import type { CopyKey } from '../desk/index.ts';
import { isValidSlug } from '../slugs.ts';
import { pathUnderBase } from './werk-field.ts';

const COPY_PATH = /^\/werke\/([^/]+?)\/exemplare\/([1-9][0-9]{0,8})(?:\.(?:html|xml|json))?$/;
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:|\/)/i;

export const EXEMPLAR_FIELD_PROBLEM = 'must be the URL of a copy of this library or its barcode';

/** The copy a field value names, or null when it names none (→ 422 with EXEMPLAR_FIELD_PROBLEM). */
export function parseExemplarField(value: unknown, links: Links): CopyKey | null {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'url' in value) {
    value = (value as { url: unknown }).url;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!URL_LIKE.test(text)) {
    const barcode = cleanBarcode(text);
    return barcode === null ? null : { barcode };
  }
  const path = pathUnderBase(text, links);
  const match = path === null ? null : COPY_PATH.exec(path.split('?')[0] ?? '');
  if (!match) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
  return isValidSlug(slug) ? { slug, nummer: Number(match[2]) } : null;
}
