// Where to send the browser after logging in (`zurueck`): only a path on this site. Anything
// that a browser could read as another host is refused — `//evil` (scheme-relative), `/\evil`
// (browsers treat `\` as `/`), `https://evil`, control characters — and `/` is used instead.
// The layer also makes the redirect absolute under the public base, so a path stays on the site.
import { routeOf } from '../registry/index.ts';
import type { QueryParams } from '../../http/index.ts';

export const SESSION_PATH = routeOf('Session');
export const RETURN_FIELD = 'zurueck';

export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}

/** The local path to come back to after logging in, for a page at `path` with `query`. */
export function returnPathOf(path: string, query?: QueryParams): string {
  const qs = query?.toString() ?? '';
  return safeReturnPath(qs ? `${path}?${qs}` : path) ?? '/';
}
