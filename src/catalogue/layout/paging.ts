// The previous/next navigation under a list page.
import type { PageContext } from './page.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import type { PageLinks } from '../shared/index.ts';

export function pagingNav(links: PageLinks, ctx: PageContext): Markup {
  if (!links.prev && !links.next) return html``;
  const t = strings(ctx.lang);
  return html`<nav class="paging" aria-label="${t.pagingLabel}">
    ${links.prev ? html`<a rel="prev" href="${ctx.links.relative(links.prev)}">${t.prevPage}</a>` : ''}
    ${links.next ? html`<a rel="next" href="${ctx.links.relative(links.next)}">${t.nextPage}</a>` : ''}
  </nav>`;
}

/** The same as <link> elements for the page head. */
export function pagingHeadLinks(links: PageLinks): { rel: string; path: string }[] {
  const out: { rel: string; path: string }[] = [];
  if (links.prev) out.push({ rel: 'prev', path: links.prev });
  if (links.next) out.push({ rel: 'next', path: links.next });
  return out;
}
