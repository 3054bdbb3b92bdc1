// The rewrite table (docs/urls.md), like mod_rewrite: the first rule whose pattern matches the
// readable path names the internal (script-style) URL the router sees. Pure functions.
import type { Format, RewriteRule } from '../resource/types.ts';
import { parseFormat } from '../negotiation/format.ts';

// Also the extra formats' suffixes (ADR 0095, 0096); a resource without one answers 404 for it.
const SUFFIX = /\.(html|xml|json|ris|bib|atom)$/;

/** The path under the base, or null when the request lies outside it. */
export function stripBase(pathname: string, basePath: string): string | null {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(basePath + '/') ? pathname.slice(basePath.length) : null;
}

/** `/personen/goethe.json` → `/personen/goethe` + json; `/index.json` is the root `/`. */
export function stripSuffix(path: string): { path: string; suffix: Format | null } {
  const match = SUFFIX.exec(path);
  if (!match) return { path, suffix: null };
  const bare = path.slice(0, match.index);
  return { path: bare === '/index' ? '/' : bare, suffix: parseFormat(match[1]) };
}

/** The inverse for Content-Location: `/werke?q=x` + json → `/werke.json?q=x`, `/` → `/index.json`. */
export function withSuffix(pathAndQuery: string, format: Format): string {
  const at = pathAndQuery.indexOf('?');
  const path = at < 0 ? pathAndQuery : pathAndQuery.slice(0, at);
  const query = at < 0 ? '' : pathAndQuery.slice(at);
  return `${path.endsWith('/') ? path + 'index' : path}.${format}${query}`;
}

/**
 * A link to another page of the same resource in the format the client chose explicitly: the
 * suffix kept (`/werke.json?nach=x`) or `format=` added to the query; unchanged when the Accept
 * header chose (the client sends it again). So a JSON or XSLT client following `next` stays in
 * its format instead of getting HTML.
 */
export function keepFormat(
  pathAndQuery: string,
  format: Format,
  source: 'suffix' | 'query' | 'accept',
): string {
  if (source === 'suffix') return withSuffix(pathAndQuery, format);
  if (source === 'accept') return pathAndQuery;
  return `${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}format=${format}`;
}

export class MalformedPathError extends Error {}

// A capture goes into the target's query string, so it is decoded and re-encoded: an `&` or
// `=` the client sent percent-encoded must stay data, never become a new parameter (the
// problem mod_rewrite's [B] flag exists for).
// A capture of only the characters encodeURIComponent leaves as they are (a slug, an id) comes
// out of decoding and encoding unchanged: skip both (ADR 0066, every request's rewrite).
const UNCHANGED = /^[A-Za-z0-9\-_.!~*'()]*$/;

function substitute(target: string, match: RegExpExecArray): string {
  return target.replace(/\$(\d)/g, (_, n: string) => {
    const captured = match[Number(n)] ?? '';
    if (UNCHANGED.test(captured)) return captured;
    try {
      return encodeURIComponent(decodeURIComponent(captured));
    } catch {
      throw new MalformedPathError(`malformed percent-encoding in ${JSON.stringify(captured)}`);
    }
  });
}

/** Applies the first matching rule: `/personen/goethe` → `/person?slug=goethe`; no match → the path itself. */
export function rewrite(path: string, rules: readonly RewriteRule[]): string {
  for (const rule of rules) {
    const match = rule.pattern.exec(path);
    if (match) return substitute(rule.target, match);
  }
  return path;
}
