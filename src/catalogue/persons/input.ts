// Reads a person from a request body (form, JSON or XML: the representation's field names).
// Writable: vorname, nachname (required), image. The life dates (`geboren`, `gestorben`) are
// their own resource (../life-dates, ADR 0026): a person's PUT leaves them as they are. The person's works are
// not written here: the link between a person and a work belongs to the work (PUT the work with
// its `person` list), so `werk`/`werke` — like `username` — are derived and ignored on input,
// which lets a client PUT back what it got from GET.
import type { Links } from '../../http/resource/types.ts';
import type { FieldSpec } from '../../http/body/index.ts';
import type { PersonInput } from './store.ts';
import { DEFAULT_IMAGE } from '../shared/index.ts';
import { checkAll, inFieldOrder, problem, type WriteProblem } from '../writes/index.ts';

export const NAME_MAX = 200;
export const IMAGE_MAX = 2048;
export const PERSON_FIELDS = {
  vorname: { type: 'string', required: true, maxLength: NAME_MAX },
  nachname: { type: 'string', required: true, maxLength: NAME_MAX },
  image: { type: 'string', maxLength: IMAGE_MAX },
} as const satisfies FieldSpec;

export const PERSON_FIELD_NAMES = Object.keys(PERSON_FIELDS);

export type PersonFields = Omit<PersonInput, 'slug'>;

export type PersonRead =
  | { readonly ok: true; readonly input: PersonFields }
  | { readonly ok: false; readonly problems: WriteProblem[] };

/**
 * The stored form of an image: an http(s) URL, or a path under the base. Our own absolute URLs
 * become paths again (so a JSON/XML PUT of a GET result keeps working behind another base URL),
 * and the default image is stored as "no image".
 */
function storedImage(image: string, links: Links): string | WriteProblem | null {
  const bad = problem('image', 'must be an http(s) URL or a path starting with /', {
    de: 'Bitte eine http(s)-Adresse oder einen Pfad, der mit / beginnt.',
    en: 'Please give an http(s) address or a path starting with /.',
  });
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(image)) return bad;
  let path = image;
  if (!image.startsWith('/')) {
    let url: URL;
    try {
      url = new URL(image);
    } catch {
      return bad;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad;
    const own = links.absolute('/');
    if (!image.startsWith(own)) return image;
    path = image.slice(own.length - 1);
  } else if (image.startsWith('//')) {
    return bad;
  }
  return path === DEFAULT_IMAGE ? null : path;
}

export function readPerson(body: unknown, links: Links): PersonRead {
  const { values: v, problems } = checkAll(body, PERSON_FIELDS, ['vorname', 'nachname']);
  let image: string | null = null;
  if (v.image !== undefined) {
    const stored = storedImage(v.image, links);
    if (stored !== null && typeof stored === 'object') problems.push(stored);
    else image = stored;
  }
  if (problems.length > 0 || v.vorname === undefined || v.nachname === undefined) {
    return { ok: false, problems: inFieldOrder(problems, PERSON_FIELD_NAMES) };
  }
  return {
    ok: true,
    input: {
      vorname: v.vorname,
      nachname: v.nachname,
      image,
    },
  };
}
