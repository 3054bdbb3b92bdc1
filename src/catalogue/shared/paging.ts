// Query parameters of the collections (`?q=`, `?nach=`, `?vor=`, `?anzahl=`) and the paths of
// their pages. German parameter names, like the rest of the URL space (docs/urls.md).
import { HttpError } from '../../http/errors/index.ts';
import { keepFormat } from '../../http/rewrite/index.ts';
import type { LinkHeader, RequestContext } from '../../http/resource/types.ts';
import { InvalidCursorError } from '../../storage/index.ts';
import { FACET_NAMES, type Page, type PageRequest, type WorkFacetFilters } from '../model.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListQuery extends PageRequest {
  readonly q?: string;
  /** The works list's facet filters (ADR 0094); kept by every link of the list. */
  readonly facets?: WorkFacetFilters;
}

/** `sortierung` values: today's list order (the default) or relevance (a search's, ADR 0080). */
export const ORDERS = ['titel', 'relevanz'] as const;

/**
 * Reads the paging parameters; a bad `anzahl` falls back to the default, a large one is capped.
 * With `orders` (a searchable list that can rank): `sortierung`, 400 for an unknown value; it
 * is kept only beside a search (without one, relevance is the list order).
 */
export function listQuery(ctx: RequestContext, options: { orders?: boolean } = {}): ListQuery {
  const q = ctx.query.get('q')?.trim() || undefined;
  const sortierung = options.orders ? ctx.query.get('sortierung') : null;
  if (sortierung !== null && sortierung !== '' && !(ORDERS as readonly string[]).includes(sortierung))
    throw new HttpError('SHELFMARK_BAD_REQUEST', {
      detail: `sortierung must be one of ${ORDERS.join(', ')}.`,
    });
  const order = q && sortierung === 'relevanz' ? ('relevanz' as const) : undefined;
  const after = ctx.query.get('nach') || undefined;
  // `nach` wins when a client sends both cursors: one direction per page.
  const before = after ? undefined : ctx.query.get('vor') || undefined;
  const raw = ctx.query.get('anzahl');
  const n = raw !== null && /^[0-9]{1,6}$/.test(raw) ? Number(raw) : DEFAULT_PAGE_SIZE;
  const limit = Math.min(Math.max(n, 1), MAX_PAGE_SIZE);
  return { q, ...(order && { order }), after, before, limit };
}

/**
 * The readable path of a page: `/werke?q=faust&dekade=1800&dekade=1810&nach=abc&anzahl=50`
 * (defaults left out).
 */
export function pagePath(collection: string, query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.order) params.set('sortierung', query.order);
  // A facet's values repeat its parameter, in the filters' canonical order (ADR 0099).
  for (const name of FACET_NAMES)
    for (const value of query.facets?.[name] ?? []) params.append(name, String(value));
  if (query.after) params.set('nach', query.after);
  if (query.before) params.set('vor', query.before);
  if (query.limit !== DEFAULT_PAGE_SIZE) params.set('anzahl', String(query.limit));
  const search = params.toString();
  return search ? `${collection}?${search}` : collection;
}

export interface PageLinks {
  readonly next?: string;
  readonly prev?: string;
}

/**
 * Paths of the neighbouring pages, keeping the search word, the page size and the format the
 * client chose by suffix or `?format=` (so a JSON or XSLT client following them stays in it).
 */
export function pageLinks(
  collection: string,
  query: ListQuery,
  page: Page<unknown>,
  ctx: Pick<RequestContext, 'format' | 'formatSource'>,
): PageLinks {
  const base = {
    q: query.q,
    ...(query.order && { order: query.order }),
    ...(query.facets && { facets: query.facets }),
    limit: query.limit,
  };
  const path = (q: ListQuery) => keepFormat(pagePath(collection, q), ctx.format, ctx.formatSource);
  return {
    prev: page.prev ? path({ ...base, before: page.prev }) : undefined,
    next: page.next ? path({ ...base, after: page.next }) : undefined,
  };
}

/** "Meinten Sie …?": the suggested query and the path of its first page (same size and format). */
export interface SuggestionLink {
  readonly q: string;
  readonly path: string;
}

export function suggestionLink(
  collection: string,
  query: ListQuery,
  page: Page<unknown>,
  ctx: Pick<RequestContext, 'format' | 'formatSource'>,
): SuggestionLink | undefined {
  if (page.suggestion === undefined) return undefined;
  const path = pagePath(collection, { ...query, q: page.suggestion, after: undefined, before: undefined });
  return { q: page.suggestion, path: keepFormat(path, ctx.format, ctx.formatSource) };
}

/** The same links for the `Link` header. */
export function linkHeaders(links: PageLinks): LinkHeader[] {
  const out: LinkHeader[] = [];
  if (links.prev) out.push({ rel: 'prev', path: links.prev });
  if (links.next) out.push({ rel: 'next', path: links.next });
  return out;
}

/**
 * Loads a page; a `nach`/`vor` cursor the store cannot read (edited by hand, truncated) is the
 * client's mistake: 400, not 500.
 */
export async function loadPage<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof InvalidCursorError)
      throw new HttpError('SHELFMARK_BAD_REQUEST', { detail: 'The paging cursor is malformed.' });
    throw error;
  }
}
