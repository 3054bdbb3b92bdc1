// What the URL declarations (./urls.ts) are turned into: the rewrite table's rules, the route a
// resource is registered at, and link builders. Compiled once at start, so a link costs what a
// template literal does.
import type { RewriteRule } from '../../http/resource/types.ts';
import { RESOURCE_URLS, type ResourceUrl, type UrlId } from './urls.ts';

const PARAMETER = /\{([a-z_]+)\}/g;

/** Ids (`…_id`) and copy numbers are positive integers; every other parameter a slug. */
export function isNumberParameter(name: string): boolean {
  return name.endsWith('_id') || name === 'nummer';
}

/** The parameters of a template, in order. */
export function parametersOf(template: string): string[] {
  return [...template.matchAll(PARAMETER)].map((m) => m[1]!);
}

export function resourceUrl(id: UrlId): ResourceUrl {
  const found = RESOURCE_URLS.find((u) => u.id === id);
  if (!found) throw new Error(`no resource URL ${id}`);
  return found;
}

/** The route a resource is registered at: the script path its URL is rewritten to, or the path. */
export function routeOf(id: UrlId): string {
  const url = resourceUrl(id);
  return url.route ? url.route.slice(0, url.route.indexOf('?')) : url.path;
}

/** Parameters narrower than a slug: an item type's code, a day, a reset link's token. */
const NARROW: Readonly<Record<string, string>> = {
  code: '([a-z0-9-]+)',
  tag: '(\\d{4}-\\d{2}-\\d{2})',
  token: '([A-Za-z0-9_-]+)',
};

/** A parameter's group in a rewrite pattern. */
const groupOf = (name: string): string => (isNumberParameter(name) ? '(\\d+)' : (NARROW[name] ?? '([^/.]+)'));

/** The rewrite rule of one URL (`^/personen/([^/.]+)$` → `/person?slug=$1`), or null without a route. */
export function rewriteRule(url: ResourceUrl): RewriteRule | null {
  if (!url.route) return null;
  const names = parametersOf(url.path);
  const source = url.path
    .split(PARAMETER)
    .map((part, i) => (i % 2 === 0 ? part.replace(/[.*+?^$()|[\]\\]/g, '\\$&') : groupOf(part)))
    .join('');
  const target = url.route.replace(PARAMETER, (_, name: string) => `$${names.indexOf(name) + 1}`);
  return { pattern: new RegExp(`^${source}$`), target };
}

/** The path template of a URL, as a string literal type. */
type PathOf<I extends UrlId> = Extract<(typeof RESOURCE_URLS)[number], { id: I }>['path'];
/** A parameter's value: a number for ids and copy numbers (isNumberParameter), else a string. */
type ValueOf<N extends string> = N extends `${string}_id` | 'nummer' ? number : string;
/** The values a template's parameters take, in order: `/werke/{slug}/exemplare/{nummer}` → [string, number]. */
type ValuesOf<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? [ValueOf<N>, ...ValuesOf<Rest>]
  : [];

/**
 * A link builder for a URL: its parameters in template order (`pathBuilder('Copy')('faust', 2)`
 * → `/werke/faust/exemplare/2`), each percent-encoded. Their number and types follow from the
 * template, so the compiler refuses a builder called with the wrong ones.
 */
export function pathBuilder<I extends UrlId>(id: I): (...values: ValuesOf<PathOf<I>>) => string {
  const parts = resourceUrl(id).path.split(PARAMETER);
  const literals = parts.filter((_, i) => i % 2 === 0);
  return (...values) => {
    let out = literals[0]!;
    for (let i = 1; i < literals.length; i++) out += encodeURIComponent(String(values[i - 1])) + literals[i]!;
    return out;
  };
}

/**
 * robots.txt's `Disallow` lines: each URL marked `robots: 'disallow'`, its parameters RFC 9309's
 * wildcard `*` (a trailing one dropped: a rule is a prefix anyway), unless another covers it.
 */
export function disallowedPaths(urls: readonly ResourceUrl[] = RESOURCE_URLS): string[] {
  const rules = urls.flatMap((url) =>
    url.robots === 'disallow' ? [url.path.replace(PARAMETER, '*').replace(/\*$/, '')] : [],
  );
  const covered = (rule: string) => rules.some((other) => other !== rule && rule.startsWith(other));
  return [...new Set(rules)].filter((rule) => !covered(rule));
}

/**
 * The query a URL's route hands its resource (`/ausleihen/{user_id}` → `benutzer=1`), a stand-in
 * value for each parameter: what `methodsAt` is asked for the methods of this URL of a shared route.
 */
export function routeQuery(id: UrlId): URLSearchParams {
  const route = resourceUrl(id).route;
  if (!route) return new URLSearchParams();
  const query = route.slice(route.indexOf('?') + 1);
  return new URLSearchParams(
    query.replace(PARAMETER, (_, name: string) => (isNumberParameter(name) ? '1' : name)),
  );
}
