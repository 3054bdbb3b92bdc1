// URL helpers shared by the views.
import type { Format, Links } from '../../http/resource/types.ts';
import { withSuffix } from '../../http/rewrite/index.ts';
import { pathBuilder, routeOf } from '../registry/index.ts';

export const DEFAULT_IMAGE = '/bilder/standard.svg';

// The links of the registry's URLs (ADR 0090), built from their one declaration.
export const PERSONS_PATH = routeOf('Persons');
export const WORKS_PATH = routeOf('Works');
export const personPath: (slug: string) => string = pathBuilder('Person');
export const workPath: (slug: string) => string = pathBuilder('Work');
/** A work's copies (issue 12), and one copy by its number within the work. */
export const copiesPath: (slug: string) => string = pathBuilder('Copies');
export const copyPath: (slug: string, nummer: number) => string = pathBuilder('Copy');
/** A person's life dates, their own resource (ADR 0026). */
export const lifeDatesPath: (slug: string) => string = pathBuilder('LifeDates');

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** A person's image for XML/JSON: absolute; stored absolute URLs are kept as they are. */
export function imageAbsolute(image: string | null, links: Links): string {
  const path = image ?? DEFAULT_IMAGE;
  return ABSOLUTE.test(path) ? path : links.absolute(path);
}

/** A person's image for HTML: root-relative unless stored as an absolute URL. */
export function imageRelative(image: string | null, links: Links): string {
  const path = image ?? DEFAULT_IMAGE;
  return ABSOLUTE.test(path) ? path : links.relative(path);
}

/**
 * The suffix URL of a representation: `/personen/goethe` → `/personen/goethe.xml`,
 * `/werke?q=x` → `/werke.xml?q=x`, `/` → `/index.xml`: the same URL the layer names in
 * Content-Location (one function, so the alternates and the header cannot disagree).
 */
export function suffixPath(canonicalPath: string, format: Format): string {
  return withSuffix(canonicalPath, format);
}

export function fullName(p: { vorname: string; nachname: string }): string {
  // Either name may be empty; no array for the join (a person page asks several times).
  return p.vorname && p.nachname ? `${p.vorname} ${p.nachname}` : p.vorname || p.nachname;
}
