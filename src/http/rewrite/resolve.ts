// From the URL the client sent to what the router sees, plus what the layer must remember
// about it (suffix, ?format=, the readable path). Pure; urlResolver remembers its answers.
import type { Format, QueryParams, RewriteRule } from '../resource/types.ts';
import { parseFormat } from '../negotiation/format.ts';
import { MalformedPathError, rewrite, stripBase, stripSuffix } from './rewrite.ts';

export interface UrlSpace {
  readonly basePath: string;
  readonly rules: readonly RewriteRule[];
  /** Path prefixes under the base that bypass suffix and rewrite logic (`/static/`). */
  readonly passthrough: readonly string[];
}

export type ResolvedUrl =
  | { readonly kind: 'star' }
  | { readonly kind: 'not-found'; readonly why: 'outside-base' | 'unknown-format' }
  | { readonly kind: 'bad-request'; readonly detail: string }
  | { readonly kind: 'passthrough'; readonly path: string; readonly routedUrl: string }
  | {
      readonly kind: 'resource';
      /** Under the base, suffix removed, before rewriting: `/personen/goethe`, `/person`. */
      readonly path: string;
      readonly suffix: Format | null;
      readonly formatParam: Format | null;
      /** The client's own query parameters (for the canonical comparison). */
      readonly clientQuery: QueryParams;
      /** Rewrite parameters merged with the client's; a rule's parameter wins. */
      readonly query: QueryParams;
      readonly routedUrl: string;
    };

export function resolveUrl(rawUrl: string, space: UrlSpace): ResolvedUrl {
  if (rawUrl === '*') return { kind: 'star' };
  const at = rawUrl.indexOf('?');
  const pathname = at < 0 ? rawUrl : rawUrl.slice(0, at);
  const search = at < 0 ? '' : rawUrl.slice(at + 1);
  const underBase = stripBase(pathname, space.basePath);
  if (underBase === null) return { kind: 'not-found', why: 'outside-base' };
  if (space.passthrough.some((prefix) => underBase.startsWith(prefix))) {
    return { kind: 'passthrough', path: underBase, routedUrl: underBase + (at < 0 ? '' : '?' + search) };
  }
  const clientQuery = new URLSearchParams(search);
  const formatValue = clientQuery.get('format');
  const formatParam = parseFormat(formatValue);
  if (formatValue !== null && formatParam === null) return { kind: 'not-found', why: 'unknown-format' };
  const { path, suffix } = stripSuffix(underBase);
  let target: string;
  try {
    target = rewrite(path, space.rules);
  } catch (error) {
    if (error instanceof MalformedPathError) return { kind: 'bad-request', detail: error.message };
    throw error;
  }
  const q = target.indexOf('?');
  const routedPath = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  const fromRule = new Set(query.keys());
  for (const [name, value] of clientQuery) if (!fromRule.has(name)) query.append(name, value);
  const qs = query.toString();
  return {
    kind: 'resource',
    path,
    suffix,
    formatParam,
    clientQuery,
    query,
    routedUrl: qs ? `${routedPath}?${qs}` : routedPath,
  };
}

/** How many request targets a resolver remembers. */
export const RESOLVED_URLS_KEPT = 8192;
/**
 * Longer targets are resolved each time: every link Shelfmark makes is shorter, and a client
 * sending long new targets must not fill the memory with them (8,192 × a few KiB at most).
 */
export const REMEMBERED_TARGET_LENGTH = 256;

/**
 * resolveUrl for one URL space, remembering its last answers: every request's target is
 * resolved before routing, and again in the first stage, and most are asked for again (a link,
 * a reload, a crawler). The answers are immutable (their queries are read-only), so one object
 * serves every request that sent the same target. Oldest out first, which costs nothing on a hit.
 */
export function urlResolver(space: UrlSpace, kept = RESOLVED_URLS_KEPT): (rawUrl: string) => ResolvedUrl {
  const answers = new Map<string, ResolvedUrl>();
  return (rawUrl) => {
    let resolved = answers.get(rawUrl);
    if (resolved !== undefined) return resolved;
    resolved = resolveUrl(rawUrl, space);
    if (rawUrl.length > REMEMBERED_TARGET_LENGTH) return resolved;
    if (answers.size >= kept) answers.delete(answers.keys().next().value!);
    answers.set(rawUrl, resolved);
    return resolved;
  };
}
