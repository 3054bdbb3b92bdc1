// Paths of a filtered list's pages (ADR 0025, 0092): the collection's own filters (`tage`,
// `status`) stay in every page's URL beside the search word and page size, and a format chosen
// by suffix or `?format=` stays too, as `pageLinks` does for the catalogue's lists.
import { keepFormat } from '../../http/rewrite/index.ts';
import type { RequestContext } from '../../http/resource/types.ts';
import type { Page } from '../model.ts';
import { pagePath, type ListQuery, type PageLinks } from '../shared/index.ts';

export type Filters = Readonly<Record<string, string | undefined>>;

/** `/ausleihen/ueberfaellig?tage=7&nach=…`: the filters first, defaults left out. */
export function filteredPath(collection: string, filters: Filters, query: ListQuery): string {
  const own = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) own.set(name, value);
  const paging = pagePath('', query);
  const rest = paging.startsWith('?') ? paging.slice(1) : '';
  const search = [own.toString(), rest].filter(Boolean).join('&');
  return search ? `${collection}?${search}` : collection;
}

export function filteredPageLinks(
  collection: string,
  filters: Filters,
  query: ListQuery,
  page: Page<unknown>,
  ctx: Pick<RequestContext, 'format' | 'formatSource'>,
): PageLinks {
  const base = { q: query.q, limit: query.limit };
  const path = (q: ListQuery) =>
    keepFormat(filteredPath(collection, filters, q), ctx.format, ctx.formatSource);
  return {
    prev: page.prev ? path({ ...base, before: page.prev }) : undefined,
    next: page.next ? path({ ...base, after: page.next }) : undefined,
  };
}
